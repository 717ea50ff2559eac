/**
 * The client the official conformance runner launches for its client leg (@modelcontextprotocol/conformance): our McpClient
 * over HttpChannel, doing what every client scenario asks.
 *
 *   node --import tsx <root>/test/mcp-client/conformance-client.ts <server url>
 *
 * The runner appends the scenario server's URL as the last argument and sets MCP_CONFORMANCE_SCENARIO,
 * MCP_CONFORMANCE_PROTOCOL_VERSION and, for some scenarios, MCP_CONFORMANCE_CONTEXT (JSON; `toolCalls` names
 * the calls to make). For 2026-07-28 the client runs in auto mode (server/discover first); for an older
 * revision, the handshake with that revision.
 *
 * Then: tools/list and the tools the context names, or every listed tool whose x-mcp-header annotations are
 * valid with arguments sampled from its schema; resources/list and read each, prompts/list and get each, when
 * advertised. Elicitation (form and URL), sampling and roots are answered by handlers, in both eras.
 *
 * Authorization scenarios (auth/…) end at once: the runtime has no OAuth client.
 *
 * Each step is written to stdout as one JSON line (`{"step":…,"ok":…}`), which the runner keeps in the
 * scenario's stdout.txt. Exit code: 0 when every step succeeded, 1 otherwise, 2 when the whole run took too long.
 */
import type { ElicitResult } from '@wiregen/mcp-2026-07-28';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { McpClient, ServerRequestHandlers } from '../../runtime/mcp/client.ts';
import { invalidHeaderAnnotations, sampleArguments, sampleElicitation } from '../helpers/schema-sample.ts';

/** The runner kills the client after 30 s; give up a little before, so the log says why. */
const RUN_LIMIT_MS = 28_000;
/**
 * Long, because the runner serves every scenario from one process while it starts them all at once (and
 * compiles the schema validators it checks each message with): under that load an answer can take seconds.
 */
const CALL_TIMEOUT_MS = 25_000;
const MAX_PAGES = 10;
const MAX_READS = 10;

const CLIENT_INFO = { name: 'wiregen-conformance-client', version: '0.1.0' };
/** Everything a scenario may ask of the client, declared in both eras. */
const CAPABILITIES: JsonObject = { roots: { listChanged: false }, sampling: {}, elicitation: { form: {}, url: {} } };

interface ToolCall {
  readonly name: string;
  readonly arguments?: JsonObject;
}

const emit = (event: JsonObject) => process.stdout.write(`${JSON.stringify(event)}\n`);

let failures = 0;

/** Runs one step, logging its outcome; a failed step is logged and counted, never thrown. */
async function step<T>(name: string, detail: JsonObject, run: () => Promise<T>): Promise<T | undefined> {
  try {
    const result = await run();
    emit({ step: name, ...detail, ok: true });
    return result;
  } catch (err) {
    failures++;
    const e = err as Error;
    const code = (err as { code?: unknown }).code;
    emit({ step: name, ...detail, ok: false, error: { name: e.name, code: typeof code === 'number' ? code : null, message: e.message } });
    return undefined;
  }
}

const handlers: ServerRequestHandlers = {
  'elicitation/create': (params) => {
    emit({ handler: 'elicitation/create', mode: params['mode'] ?? 'form' });
    if (params['mode'] === 'url') return { action: 'accept' };
    // One value per field of the requested (flat, primitive) schema: what ElicitResult.content holds.
    return { action: 'accept', content: sampleElicitation(params['requestedSchema']) as ElicitResult['content'] };
  },
  'sampling/createMessage': () => {
    emit({ handler: 'sampling/createMessage' });
    return { role: 'assistant', content: { type: 'text', text: 'A sampled reply.' }, model: 'wiregen-conformance-model', stopReason: 'endTurn' };
  },
  'roots/list': () => {
    emit({ handler: 'roots/list' });
    return { roots: [{ uri: 'file:///tmp/wiregen-conformance', name: 'conformance' }] };
  },
};

/** fetch, logging each exchange (the JSON-RPC method, the HTTP status, how long it took). */
const loggedFetch: typeof fetch = async (input, init) => {
  const started = Date.now();
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as JsonObject) : {};
  const what = { http: init?.method ?? 'GET', method: body['method'] ?? (body['id'] !== undefined ? 'response' : null) };
  try {
    const res = await fetch(input, init);
    emit({ ...what, status: res.status, ms: Date.now() - started });
    return res;
  } catch (err) {
    emit({ ...what, error: (err as Error).message, ms: Date.now() - started });
    throw err;
  }
};

/** Every page of a list method (following nextCursor). */
async function listAll(client: McpClient, method: string, key: string): Promise<JsonObject[]> {
  const items: JsonObject[] = [];
  let cursor: unknown;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = (await client.call(method, cursor === undefined ? undefined : { cursor: cursor as string })) as JsonObject;
    if (Array.isArray(result[key])) items.push(...(result[key] as JsonObject[]));
    cursor = result['nextCursor'];
    if (typeof cursor !== 'string') break;
  }
  return items;
}

/** The calls to make: the context's, or every listed tool with valid header annotations and sampled arguments. */
function plannedCalls(tools: readonly JsonObject[], context: JsonObject): ToolCall[] {
  if (Array.isArray(context['toolCalls'])) return context['toolCalls'] as ToolCall[];
  const calls: ToolCall[] = [];
  for (const tool of tools) {
    const invalid = invalidHeaderAnnotations(tool['inputSchema']);
    if (invalid.length) {
      emit({ step: 'skip tool', name: tool['name'], reasons: invalid });
      continue;
    }
    calls.push({ name: String(tool['name']), arguments: sampleArguments(tool['inputSchema']) });
  }
  return calls;
}

async function run(url: string): Promise<void> {
  // Imported here, not at the top: a run that ends early (authorization scenarios) skips loading the validators.
  const [{ McpClient }, { HttpChannel }, { isStatelessVersion }] = await Promise.all([
    import('../../runtime/mcp/client.ts'),
    import('../../runtime/mcp/client-channels.ts'),
    import('../../runtime/mcp/revisions.ts'),
  ]);
  const version = process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'] ?? '2025-11-25';
  const context = process.env['MCP_CONFORMANCE_CONTEXT'] ? (JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT']) as JsonObject) : {};
  const stateless = isStatelessVersion(version);
  const client = new McpClient(new HttpChannel(url, { fetch: loggedFetch }), {
    clientInfo: CLIENT_INFO,
    capabilities: CAPABILITIES,
    mode: stateless ? 'auto' : 'handshake',
    ...(stateless ? {} : { protocolVersion: version }),
    handlers,
    onNotification: (method) => emit({ notification: method }),
    timeoutMs: CALL_TIMEOUT_MS,
  });
  emit({ scenario, version, url, mode: stateless ? 'auto' : 'handshake' });
  const connected = await step('connect', {}, async () => (await client.connect(), true));
  if (!connected) return;
  emit({ connected: client.era, protocolVersion: client.protocolVersion ?? null, serverCapabilities: client.serverCapabilities });
  const caps = client.serverCapabilities;
  if (caps['tools'] !== undefined) {
    const tools = (await step('tools/list', {}, () => listAll(client, 'tools/list', 'tools'))) ?? [];
    for (const call of plannedCalls(tools, context))
      await step('tools/call', { name: call.name }, () => client.call('tools/call', { name: call.name, arguments: call.arguments ?? {} }));
  }
  if (caps['resources'] !== undefined) {
    const resources = (await step('resources/list', {}, () => listAll(client, 'resources/list', 'resources'))) ?? [];
    for (const resource of resources.slice(0, MAX_READS))
      await step('resources/read', { uri: resource['uri'] as string }, () => client.call('resources/read', { uri: resource['uri'] as string }));
  }
  if (caps['prompts'] !== undefined) {
    const prompts = (await step('prompts/list', {}, () => listAll(client, 'prompts/list', 'prompts'))) ?? [];
    for (const prompt of prompts.slice(0, MAX_READS)) {
      const declared = Array.isArray(prompt['arguments']) ? (prompt['arguments'] as JsonObject[]) : [];
      const args = Object.fromEntries(declared.filter((a) => a['required']).map((a) => [String(a['name']), 'sample']));
      await step('prompts/get', { name: prompt['name'] as string }, () =>
        client.call('prompts/get', { name: prompt['name'] as string, arguments: args }),
      );
    }
  }
  await step('close', {}, () => client.close());
}

const url = process.argv.at(-1);
if (!url || !/^https?:\/\//.test(url)) {
  process.stderr.write('usage: node --import tsx test/mcp-client/conformance-client.ts <server url>\n');
  process.exit(2);
}
const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
if (scenario.startsWith('auth/')) {
  // Authorization (OAuth) is not part of the runtime: say so and leave, instead of loading everything to fail.
  emit({ scenario, skipped: 'this client implements no authorization' });
  process.exit(0);
}
const limit = setTimeout(() => {
  emit({ step: 'run', ok: false, error: { message: `gave up after ${RUN_LIMIT_MS} ms` } });
  process.exit(2);
}, RUN_LIMIT_MS);
limit.unref();
await run(url);
process.exitCode = failures ? 1 : 0;
