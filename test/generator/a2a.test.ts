/**
 * The A2A bundle: every cross-file reference of a2a.json resolves to a local definition, and the proto's
 * service is read with its routes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleA2a } from '../../generator/load/a2a.ts';
import { parseProto } from '../../generator/load/proto.ts';
import { walkSchema, type Json } from '../../generator/load/schema.ts';
import * as a2a from '../../generated/a2a-1.0/index.ts';
import { ROOT } from '../helpers/project.ts';

const raw = JSON.parse(readFileSync(join(ROOT, 'schemas/a2a/1.0/a2a.json'), 'utf8')) as { definitions: Record<string, Json> };
const proto = parseProto(readFileSync(join(ROOT, 'schemas/a2a/1.0/a2a.proto'), 'utf8'), 'a2a.proto');
const bundle = bundleA2a(raw, 'a2a.json', proto);

function refs(node: Json): string[] {
  const out: string[] = [];
  walkSchema(node, (s) => {
    if (typeof s['$ref'] === 'string') out.push(s['$ref']);
  });
  return out;
}

describe('A2A bundle', () => {
  it('renames the 47 titled definitions after their proto messages and adds TaskState, Role and Empty', () => {
    expect(Object.keys(raw.definitions)).toHaveLength(47);
    const names = Object.keys(bundle.defs);
    expect(names).toHaveLength(50);
    for (const added of ['TaskState', 'Role', 'Empty']) expect(names).toContain(added);
    for (const message of proto.messages.keys()) if (!message.includes('.')) expect(names, message).toContain(message);
  });

  it('resolves every cross-file reference to a local definition', () => {
    const original = Object.values(raw.definitions).flatMap(refs);
    expect(original.length).toBeGreaterThan(50);
    expect(original.every((r) => r.endsWith('.jsonschema.json'))).toBe(true);
    // The definitions and what only the validators apply to them (ProtoJSON's snake_case spellings hold refs too).
    const local = [...Object.values(bundle.defs), ...Object.values(bundle.validationOnly ?? {})].flatMap(refs);
    // Each original reference is still there (now local), plus one per hoisted enum use.
    expect(local.length).toBe(original.length + 3);
    for (const ref of local) {
      expect(ref).toMatch(/^#\/\$defs\/[A-Za-z0-9]+$/);
      expect(bundle.defs[ref.slice('#/$defs/'.length)], ref).toBeDefined();
    }
  });

  it('hoists the inline enums into definitions', () => {
    expect(bundle.defs['TaskState']?.['anyOf']).toBeDefined();
    expect(JSON.stringify(bundle.defs['TaskStatus']?.['properties'])).toContain('"$ref":"#/$defs/TaskState"');
  });

  it('adds what the proto says and the bundle does not: REQUIRED fields, non-empty required lists, oneofs', () => {
    expect(bundle.defs['Message']?.['required']).toEqual(['messageId', 'role', 'parts']);
    expect(a2a.validators.Message({ messageId: 'm', role: 'ROLE_USER', parts: [] })).toBe(false);
    expect(a2a.validators.Message({ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'a' }] })).toBe(true);
    // A Part carries exactly one of text, raw, url, data.
    expect(a2a.validators.Part({ text: 'a', url: 'https://x' })).toBe(false);
    expect(a2a.validators.Part({ mediaType: 'text/plain' })).toBe(false);
    expect(a2a.validators.StreamResponse({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } })).toBe(true);
    expect(a2a.validators.StreamResponse({})).toBe(false);
    // A list in a response may be empty.
    expect(a2a.validators.ListTasksResponse({ tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 })).toBe(true);
  });

  it('validates the recorded SendMessage params and rejects an unknown field', () => {
    const params = { message: { messageId: 'm-1', parts: [{ text: 'summarise the design notes' }], role: 'ROLE_USER' } };
    expect(a2a.validators.SendMessageRequest(params)).toBe(true);
    expect(a2a.validators.SendMessageRequest({ ...params, extra: 1 })).toBe(false);
    expect(a2a.validators.Message({ ...params.message, role: 'ROLE_ROBOT' })).toBe(false);
  });
});

describe('proto reader', () => {
  it('reads the service with streaming flags and google.api.http routes', () => {
    const service = proto.services.find((s) => s.name === 'A2AService')!;
    expect(service.rpcs.map((r) => r.name)).toEqual([
      'SendMessage',
      'SendStreamingMessage',
      'GetTask',
      'ListTasks',
      'CancelTask',
      'SubscribeToTask',
      'CreateTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfigs',
      'GetExtendedAgentCard',
      'DeleteTaskPushNotificationConfig',
    ]);
    expect(service.rpcs.filter((r) => r.serverStreaming).map((r) => r.name)).toEqual(['SendStreamingMessage', 'SubscribeToTask']);
    expect(service.rpcs.find((r) => r.name === 'CancelTask')!.http).toEqual([
      { verb: 'POST', path: '/tasks/{id=*}:cancel', body: '*' },
      { verb: 'POST', path: '/{tenant}/tasks/{id=*}:cancel', body: '*' },
    ]);
    expect(service.rpcs.find((r) => r.name === 'DeleteTaskPushNotificationConfig')!.output).toBe('google.protobuf.Empty');
  });

  it('reads field behaviours, json names and oneofs', () => {
    const task = proto.messages.get('Task')!;
    expect(task.fields.filter((f) => f.behaviors.includes('REQUIRED')).map((f) => f.jsonName)).toEqual(['id', 'status']);
    expect(task.fields.find((f) => f.name === 'context_id')!.jsonName).toBe('contextId');
    const part = proto.messages.get('Part')!;
    expect(part.oneofs).toEqual(['content']);
    expect(part.fields.filter((f) => f.oneof === 'content').map((f) => f.name)).toEqual(['text', 'raw', 'url', 'data']);
  });

  it('reports what it cannot read with a line and column', () => {
    expect(() => parseProto('syntax = "proto3";\nmessage A {\n  string a = 1\n}\n', 'x.proto')).toThrow("x.proto:4:1: expected ';', found '}'");
    expect(() => parseProto('service S { rpc A(B) returns (C) { option (google.api.http) = { body: "*" }; } }', 'y.proto')).toThrow(
      'y.proto:1:36: google.api.http binding has no get/post/put/patch/delete path',
    );
  });

  it('requires the ; after an option statement, naming the line of what follows instead', () => {
    expect(() => parseProto('syntax = "proto3";\noption java_package = "x"\nmessage A {}\n', 'z.proto')).toThrow(
      "z.proto:3:1: expected ';', found 'message'",
    );
    expect(() => parseProto('message A {\n  option deprecated = true\n  string a = 1;\n}\n', 'z.proto')).toThrow(
      "z.proto:3:3: expected ';', found 'string'",
    );
    expect(() => parseProto('enum E {\n  option allow_alias = true\n  E_UNSPECIFIED = 0;\n}\n', 'z.proto')).toThrow(
      "z.proto:3:3: expected ';', found 'E_UNSPECIFIED'",
    );
    expect(() => parseProto('service S {\n  option deprecated = true\n  rpc A(B) returns (C);\n}\n', 'z.proto')).toThrow(
      "z.proto:3:3: expected ';', found 'rpc'",
    );
    // In an rpc's body the reader has always let the ; go.
    expect(
      parseProto('service S { rpc A(B) returns (C) { option (google.api.http) = { post: "/a" } } }', 'z.proto').services[0]!.rpcs[0]!.http,
    ).toEqual([{ verb: 'POST', path: '/a' }]);
  });
});

describe('ProtoJSON member order (plan/wire-order.ts)', () => {
  it('lists each message’s fields by number, with the message type of message-holding fields and maps', async () => {
    const { planWireOrder } = await import('../../generator/plan/wire-order.ts');
    const order = planWireOrder(proto);
    // Read off a2a.proto v1.0.1 by hand.
    expect(order.messages['Task']).toEqual([
      { name: 'id' },
      { name: 'contextId' },
      { name: 'status', message: 'TaskStatus' },
      { name: 'artifacts', message: 'Artifact' },
      { name: 'history', message: 'Message' },
      { name: 'metadata' },
    ]);
    expect(order.messages['TaskStatus']).toEqual([{ name: 'state' }, { name: 'message', message: 'Message' }, { name: 'timestamp' }]);
    expect(order.messages['AgentCard']!.find((f) => f.name === 'securitySchemes')).toEqual({
      name: 'securitySchemes',
      message: 'SecurityScheme',
      map: true,
    });
  });

  it('the generated package carries that order, and each rpc’s input and output message (the methods’ params and result)', () => {
    expect(a2a.rpcOutputs).toMatchObject({
      SendMessage: 'SendMessageResponse',
      SendStreamingMessage: 'StreamResponse',
      GetTask: 'Task',
      DeleteTaskPushNotificationConfig: 'Empty',
    });
    expect(a2a.rpcInputs).toMatchObject({ SendMessage: 'SendMessageRequest', CreateTaskPushNotificationConfig: 'TaskPushNotificationConfig' });
    for (const method of Object.keys(a2a.methods)) {
      expect(a2a.rpcInputs[method], method).toBeDefined();
      expect(a2a.rpcOutputs[method], method).toBeDefined();
    }
    for (const [name, fields] of Object.entries(a2a.messageFields))
      for (const f of fields) if (f.message) expect(a2a.messageFields[f.message], `${name}.${f.name} → ${f.message}`).toBeDefined();
  });
});
