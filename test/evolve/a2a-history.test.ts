/**
 * `diff` of two protos on A2A's real history: v1.0.0-rc (test/fixtures/a2a-v1.0.0-rc, copied unchanged)
 * against the pinned v1.0.1. The expectations are read off the fourteen upstream commits between v1.0.0-rc
 * and v1.0.0 that touch specification/a2a.proto (v1.0.1 changed only comments), each cited by its commit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffProtos } from '../../generator/evolve/diff-proto.ts';
import { A2A_LEX } from '../../generator/load/index.ts';
import { parseProto } from '../../generator/load/proto.ts';
import { ROOT } from '../helpers/project.ts';

const rc = parseProto(readFileSync(join(ROOT, 'test/fixtures/a2a-v1.0.0-rc/a2a.proto'), 'utf8'), 'v1.0.0-rc/a2a.proto', A2A_LEX);
const pinned = parseProto(readFileSync(join(ROOT, 'schemas/a2a/1.0/a2a.proto'), 'utf8'), 'schemas/a2a/1.0/a2a.proto', A2A_LEX);
const findings = diffProtos(rc, pinned);
const has = (rule: string, subject: string, cls: string) =>
  expect(
    findings.filter((f) => f.rule === rule && f.subject === subject).map((f) => f.class),
    `${rule} ${subject}`,
  ).toContain(cls);

describe('A2A v1.0.0-rc → v1.0.1', () => {
  it('601c408a renamed SendMessageConfiguration.blocking to return_immediately (field 4)', () => {
    const f = findings.find((x) => x.rule === 'FIELD_SAME_NAME' && x.subject === 'SendMessageConfiguration.return_immediately')!;
    expect(f).toMatchObject({ class: 'wire-breaking', file: 'schemas/a2a/1.0/a2a.proto' });
    expect(f.message).toBe(
      'field 4 of SendMessageConfiguration is "return_immediately" (JSON "returnImmediately"), was "blocking" (JSON "blocking"): renamed',
    );
    const line =
      readFileSync(join(ROOT, 'schemas/a2a/1.0/a2a.proto'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('bool return_immediately = 4;')) + 1;
    expect(f.line).toBe(line);
  });

  it('a54e8090 added the LF prefix to the package', () => {
    has('FILE_SAME_PACKAGE', 'lf.a2a.v1', 'wire-breaking');
  });

  it('d1ed0da5 combined TaskPushNotificationConfig and PushNotificationConfig; 010b9cc9 removed config from the binding', () => {
    has('MESSAGE_NO_DELETE', 'PushNotificationConfig', 'source-breaking');
    has('MESSAGE_NO_DELETE', 'CreateTaskPushNotificationConfigRequest', 'source-breaking');
    has('FIELD_SAME_NAME', 'SendMessageConfiguration.task_push_notification_config', 'wire-breaking');
    has('FIELD_SAME_TYPE', 'SendMessageConfiguration.task_push_notification_config', 'wire-breaking');
    has('FIELD_NO_DELETE', 'TaskPushNotificationConfig.push_notification_config', 'wire-breaking');
    has('FIELD_ADDED', 'TaskPushNotificationConfig.url', 'wire-breaking'); // REQUIRED
    has('FIELD_ADDED', 'TaskPushNotificationConfig.token', 'compatible');
    has('RPC_SAME_REQUEST_TYPE', 'A2AService.CreateTaskPushNotificationConfig', 'wire-breaking');
    expect(findings.filter((f) => f.rule === 'HTTP_ROUTE_SAME_BODY').map((f) => f.message)).toEqual([
      'rpc A2AService.CreateTaskPushNotificationConfig route POST /tasks/{task_id=*}/pushNotificationConfigs body *, was config',
      'rpc A2AService.CreateTaskPushNotificationConfig route POST /{tenant}/tasks/{task_id=*}/pushNotificationConfigs body *, was config',
    ]);
  });

  it('cf735cb8 pluralized ListTaskPushNotificationConfigs', () => {
    has('RPC_NO_DELETE', 'A2AService.ListTaskPushNotificationConfig', 'wire-breaking');
    has('RPC_ADDED', 'A2AService.ListTaskPushNotificationConfigs', 'compatible');
    has('MESSAGE_NO_DELETE', 'ListTaskPushNotificationConfigRequest', 'source-breaking');
    has('MESSAGE_ADDED', 'ListTaskPushNotificationConfigsResponse', 'compatible');
  });

  it('cd16c527 and 1997c9d6 renumbered fields (tenant first, no gaps)', () => {
    const renumbered = findings.filter((f) => f.rule === 'FIELD_SAME_NUMBER');
    expect(renumbered.every((f) => f.class === 'wire-breaking')).toBe(true);
    const message = (subject: string) => renumbered.find((f) => f.subject === subject)?.message;
    expect(message('ListTasksRequest.tenant')).toBe('ListTasksRequest.tenant is field 1, was 9 (renumbered)');
    expect(message('AgentCard.supported_interfaces')).toBe('AgentCard.supported_interfaces is field 3, was 19 (renumbered)');
    expect(message('Artifact.name')).toBe('Artifact.name is field 2, was 3 (renumbered)');
  });

  it('c441b910 added CancelTaskRequest.metadata; dec790aa made Task.context_id optional', () => {
    has('FIELD_ADDED', 'CancelTaskRequest.metadata', 'compatible');
    has('FIELD_SAME_REQUIRED', 'Task.context_id', 'wire-breaking');
  });
});
