/**
 * ProtoJSON member order (what protobuf's JSON printers write, the reference SDK's among them; the kit,
 * "field order inside objects match"): fields by their number in a2a.proto v1.0.1. The expected orders are
 * read off the proto by hand (Task: id 1, context_id 2, status 3, artifacts 4, history 5, metadata 6;
 * Message: message_id 1, context_id 2, task_id 3, role 4, parts 5, metadata 6, …).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { inWireOrder } from '../../runtime/a2a/wire-order.ts';
import { KIT_BEHAVIOUR, SDK_BEHAVIOUR } from '../../runtime/a2a/types.ts';
import { agentPool, testCard, userMessage, webhookServer, type Json } from '../helpers/a2a-server.ts';
import { eventually } from '../helpers/http-client.ts';

const TASK = ['id', 'contextId', 'status', 'artifacts', 'history'];
const MESSAGE = ['messageId', 'contextId', 'taskId', 'role', 'parts'];
const STATUS = ['state', 'message', 'timestamp'];
const ARTIFACT = ['artifactId', 'name', 'parts'];

describe('inWireOrder', () => {
  it('orders members by field number, recursively through messages, lists and map values', () => {
    const sorted = {
      artifacts: [{ artifactId: 'a', name: 'n', parts: [{ mediaType: 'text/plain', text: 't' }] }],
      contextId: 'c',
      history: [{ contextId: 'c', messageId: 'm', parts: [{ text: 'hi' }], role: 'ROLE_USER', taskId: 't' }],
      id: 't',
      status: { state: 'TASK_STATE_WORKING', timestamp: 'z' },
    };
    const ordered = inWireOrder(sorted, 'Task') as Json;
    expect(Object.keys(ordered)).toEqual(TASK);
    expect(Object.keys(ordered.history[0])).toEqual(MESSAGE);
    expect(Object.keys(ordered.artifacts[0].parts[0])).toEqual(['text', 'mediaType']);
    expect(ordered).toEqual(sorted);
    const card = inWireOrder(
      { securitySchemes: { b: { httpAuthSecurityScheme: { scheme: 'Bearer', description: 'd' } } }, name: 'x' },
      'AgentCard',
    ) as Json;
    expect(Object.keys(card)).toEqual(['name', 'securitySchemes']);
    expect(Object.keys(card.securitySchemes.b.httpAuthSecurityScheme)).toEqual(['description', 'scheme']);
  });

  it('keeps members the proto does not know (after the known ones) and Struct values as they came', () => {
    const ordered = inWireOrder({ z: 1, metadata: { b: 1, a: 2 }, id: 't', contextId: 'c' }, 'Task') as Json;
    expect(Object.keys(ordered)).toEqual(['id', 'contextId', 'metadata', 'z']);
    expect(Object.keys(ordered.metadata)).toEqual(['b', 'a']);
    expect(inWireOrder(null, 'Empty')).toBeNull();
    expect(inWireOrder('text', 'Task')).toBe('text');
  });
});

describe('on the wire', () => {
  const pool = agentPool();
  const hooks: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await pool.closeAll();
    await Promise.all(hooks.splice(0).map((h) => h.close()));
  });
  const executor = {
    async execute(ctx: import('../../runtime/a2a/types.ts').ExecutionContext) {
      const task = await ctx.startTask();
      await task.working(task.agentMessage('on it'));
      await task.artifact({ name: 'out', parts: [{ text: 'result' }] });
      await task.complete();
    },
  };

  it.each([
    ['SDK', SDK_BEHAVIOUR],
    ['kit', KIT_BEHAVIOUR],
  ] as const)('%s: JSON-RPC and HTTP+JSON results, stream frames and pushes are in ProtoJSON order', async (_, behaviour) => {
    const a = await pool.start({
      executor,
      behaviour,
      card: testCard({ streaming: true, pushNotifications: true }),
      push: { allowedHosts: ['127.0.0.1'] },
    });
    const task = (await a.rpc('SendMessage', userMessage('go'))).result.task as Json;
    expect(Object.keys(task)).toEqual(TASK);
    expect(Object.keys(task.status)).toEqual(['state', 'timestamp']);
    expect(Object.keys(task.history[0])).toEqual(MESSAGE);
    expect(Object.keys(task.artifacts[0])).toEqual(['artifactId', 'name', 'parts']);
    const rest = await a.rest('GET', `/rest/tasks/${task.id}`);
    expect(Object.keys(rest.json as Json)).toEqual(TASK);

    const hook = await webhookServer();
    hooks.push(hook);
    const stream = await a.stream('SendStreamingMessage', userMessage('go', {}, { taskPushNotificationConfig: { url: hook.url } }));
    await stream.ended;
    const results = (stream.frames as Json[]).map((f) => f.result as Json);
    const status = results.find((r) => r.statusUpdate?.status.message)!;
    expect(Object.keys(status.statusUpdate)).toEqual(['taskId', 'contextId', 'status']);
    expect(Object.keys(status.statusUpdate.status)).toEqual(STATUS);
    expect(Object.keys(status.statusUpdate.status.message)).toEqual(MESSAGE);
    const artifact = results.find((r) => r.artifactUpdate)!;
    expect(Object.keys(artifact.artifactUpdate).slice(0, 3)).toEqual(['taskId', 'contextId', 'artifact']);
    expect(Object.keys(artifact.artifactUpdate.artifact)).toEqual(ARTIFACT);
    await eventually(() => hook.received.some((d) => d.body.statusUpdate?.status.state === 'TASK_STATE_COMPLETED'));
    const pushed = hook.received.find((d) => d.body.statusUpdate?.status.message)!;
    expect(Object.keys(pushed.body.statusUpdate.status.message)).toEqual(MESSAGE);
  });
});
