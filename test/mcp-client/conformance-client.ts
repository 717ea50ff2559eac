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
 * valid with arguments sampled from its schema (json-schema-2020-12-preservation: the focal tool's inputSchema,
 * as the client received it, passed back to the echo tool, as the scenario asks); resources/list and read
 * each, prompts/list and get each, when advertised. Elicitation (form and URL), sampling and roots are answered by handlers, in both eras.
 *
 * Skills (SEP-2640, https://modelcontextprotocol.io/seps/2640-skills-extension), when the server declares the
 * extension: skills/list through McpSkillsClient, and no skill file read ahead of need (resources/read skips
 * them too). The sep-2640-client-verify-* scenarios stand for the need: there the driver loads the first skill
 * (its SKILL.md verified by size, digest and frontmatter) and reads its other files only when it verified.
 *
 * Authorization scenarios (auth/…): the channel authorizes with an OAuthClient (@wiregen/runtime/auth), the
 * browser step done headlessly (test/auth/headless-browser.ts), configured as an application would be from what
 * the scenario's context hands over: pre-registered credentials, a client-credentials client (secret or private
 * key), a workload JWT (jwt-bearer), or an enterprise IdP's ID token (identity assertion). Every other auth
 * scenario runs the authorization code grant with a Client ID Metadata Document URL and dynamic registration
 * as fallbacks. Loopback http is allowed (the runner serves http on localhost).
 *
 * Each step is written to stdout as one JSON line (`{"step":…,"ok":…}`), which the runner keeps in the
 * scenario's stdout.txt. Exit code: 0 when every step succeeded, 1 otherwise, 2 when the whole run took too long.
 */
import type { ElicitResult } from '@wiregen/mcp-2026-07-28';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { OAuthClientOptions } from '../../runtime/auth/index.ts';
import type { McpClient, ServerRequestHandlers } from '../../runtime/mcp/client/client.ts';
import type { McpSkillsClient } from '../../runtime/mcp/ext/skills/index.ts';
import { headlessBrowser } from '../auth/headless-browser.ts';
import { invalidHeaderAnnotations, sampleArguments, sampleElicitation } from '../helpers/schema-sample.ts';

/**
 * The runner kills the client after its --timeout (30 s by default); give up a little before, so the log says
 * why. The harness raises both when it runs many scenarios at once (WIREGEN_CONFORMANCE_RUN_LIMIT_MS).
 */
const RUN_LIMIT_MS = Number(process.env['WIREGEN_CONFORMANCE_RUN_LIMIT_MS'] ?? 28_000);
/**
 * Long, because the runner serves every scenario from one process while it starts them all at once (and
 * compiles the schema validators it checks each message with): under that load an answer can take seconds.
 * A call's limit covers the authorization it sets off (discovery, registration, the grant).
 */
const CALL_TIMEOUT_MS = Math.max(5_000, RUN_LIMIT_MS - 3_000);
const MAX_PAGES = 10;
const MAX_READS = 10;

const CLIENT_INFO = { name: 'wiregen-conformance-client', version: '0.1.0' };
/** The redirect URI registered for the authorization code grant (a native client's loopback redirect, RFC 8252 §7.3). */
const REDIRECT_URI = 'http://localhost:3000/callback';
/** This client's Client ID Metadata Document URL (the runner's authorization servers accept it as is). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Everything a scenario may ask of the client, declared in both eras. */
const CAPABILITIES: JsonObject = { roots: { listChanged: false }, sampling: {}, elicitation: { form: {}, url: {} } };

/** The runner's skills scenarios that tamper with a skill's SKILL.md: the driver loads the skill (a host's "need"). */
const LOAD_SKILL_SCENARIOS = /^sep-2640-client-verify-/;

/** The runner's json-schema-2020-12-preservation scenario: its focal tool and the echo tool (its description). */
const PRESERVATION = { scenario: 'json-schema-2020-12-preservation', focal: 'json_schema_2020_12_tool', echo: 'json_schema_echo' };

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

/** The JSON-RPC body of a request, when it has one (token and registration requests have none). */
function rpcBody(body: unknown): JsonObject {
  if (typeof body !== 'string') return {};
  try {
    const value = JSON.parse(body) as unknown;
    return value !== null && typeof value === 'object' && 'jsonrpc' in value ? (value as JsonObject) : {};
  } catch {
    return {};
  }
}

/**
 * fetch, logging each exchange: the URL without its query, the JSON-RPC method, the HTTP status, how long it
 * took. Never a header or a form body (they carry credentials and tokens).
 */
const loggedFetch: typeof fetch = async (input, init) => {
  const started = Date.now();
  const body = rpcBody(init?.body);
  const target = new URL(input instanceof Request ? input.url : input);
  const what = {
    http: init?.method ?? 'GET',
    url: `${target.origin}${target.pathname}`,
    method: body['method'] ?? (body['id'] !== undefined ? 'response' : null),
  };
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
  if (scenario === PRESERVATION.scenario) {
    // The scenario asks for the focal tool's inputSchema, as the client received it, back as the echo tool's
    // `schema` argument: what it compares with what it served (SEP-1613, SEP-2106).
    const focal = tools.find((t) => t['name'] === PRESERVATION.focal);
    if (focal) return [{ name: PRESERVATION.echo, arguments: { schema: focal['inputSchema'] as JsonObject } }];
  }
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

/**
 * skills/list, then (in the verify scenarios) loading the first skill and reading its other files once it
 * verified; returns every file URI the entries list, which nothing else may read ahead of need.
 */
async function skillSteps(skills: McpSkillsClient): Promise<Set<string>> {
  const listed = (await step('skills/list', {}, () => skills.listAll())) ?? [];
  const files = new Set(listed.flatMap((s) => [s.uri, ...(s.resources === 'dynamic' ? [] : s.resources.map((r) => r.uri))]));
  const [first] = listed;
  if (!first || !LOAD_SKILL_SCENARIOS.test(scenario)) return files;
  const loaded = await step('skills/load', { uri: first.uri }, () => skills.load(first));
  if (loaded && first.resources !== 'dynamic')
    for (const file of first.resources.filter((r) => r.uri !== first.uri))
      await step('skills/read', { uri: file.uri }, () => skills.read(first, file.uri));
  return files;
}

/** The OAuth client an application would configure for this scenario, from the credentials its context hands over. */
function authOptions(context: JsonObject): OAuthClientOptions {
  const text = (key: string) => (typeof context[key] === 'string' ? (context[key] as string) : undefined);
  const base: OAuthClientOptions = {
    fetch: loggedFetch,
    allowLoopbackHttp: true,
    clientMetadata: { client_name: CLIENT_INFO.name, redirect_uris: [REDIRECT_URI] },
    clientMetadataUrl: CLIENT_METADATA_URL,
    authorize: headlessBrowser(loggedFetch, { onHop: (at) => emit({ browser: at }) }),
  };
  const clientId = text('client_id');
  if (!clientId) return base;
  const secret = text('client_secret');
  const client = { client_id: clientId, ...(secret ? { client_secret: secret } : {}) };
  if (text('idp_id_token'))
    return {
      ...base,
      client,
      grant: {
        type: 'identity-assertion',
        idToken: () => text('idp_id_token')!,
        idp: { tokenEndpoint: text('idp_token_endpoint')!, issuer: text('idp_issuer')!, clientId: text('idp_client_id')! },
      },
    };
  if (text('valid_jwt')) return { ...base, client, grant: { type: 'jwt-bearer', assertion: () => text('valid_jwt')! } };
  const pem = text('private_key_pem');
  if (pem)
    return {
      ...base,
      client: { ...client, privateKey: pem, signingAlgorithm: text('signing_algorithm') ?? 'ES256' },
      grant: { type: 'client-credentials' },
    };
  // A machine client (its scenario is about client credentials), or a user's app with pre-registered credentials.
  return String(context['name'] ?? '').includes('client-credentials')
    ? { ...base, client, grant: { type: 'client-credentials' } }
    : { ...base, client };
}

async function run(url: string): Promise<void> {
  // Imported here, not at the top: a usage error ends before loading the validators.
  const [{ McpClient }, { HttpChannel }, { isStatelessVersion }, { McpSkillsClient }] = await Promise.all([
    import('../../runtime/mcp/client/client.ts'),
    import('../../runtime/mcp/client/channels.ts'),
    import('../../runtime/mcp/revisions.ts'),
    import('../../runtime/mcp/ext/skills/index.ts'),
  ]);
  const skills = new McpSkillsClient();
  const version = process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'] ?? '2025-11-25';
  const context = process.env['MCP_CONFORMANCE_CONTEXT'] ? (JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT']) as JsonObject) : {};
  const stateless = isStatelessVersion(version);
  const auth = scenario.startsWith('auth/') ? new (await import('../../runtime/auth/index.ts')).OAuthClient(authOptions(context)) : undefined;
  const client = new McpClient(new HttpChannel(url, auth ? { auth } : { fetch: loggedFetch }), {
    clientInfo: CLIENT_INFO,
    capabilities: CAPABILITIES,
    mode: stateless ? 'auto' : 'handshake',
    ...(stateless ? {} : { protocolVersion: version }),
    handlers,
    onNotification: (method) => emit({ notification: method }),
    timeoutMs: CALL_TIMEOUT_MS,
    extensions: [skills],
  });
  emit({ scenario, version, url, mode: stateless ? 'auto' : 'handshake' });
  const connected = await step('connect', {}, async () => (await client.connect(), true));
  if (!connected) return;
  emit({ connected: client.era, protocolVersion: client.protocolVersion ?? null, serverCapabilities: client.serverCapabilities });
  const caps = client.serverCapabilities;
  const skillFiles = skills.serverSupports ? await skillSteps(skills) : new Set<string>();
  if (caps['tools'] !== undefined) {
    const tools = (await step('tools/list', {}, () => listAll(client, 'tools/list', 'tools'))) ?? [];
    for (const call of plannedCalls(tools, context))
      await step('tools/call', { name: call.name }, () => client.call('tools/call', { name: call.name, arguments: call.arguments ?? {} }));
  }
  if (caps['resources'] !== undefined) {
    const resources = (await step('resources/list', {}, () => listAll(client, 'resources/list', 'resources'))) ?? [];
    for (const resource of resources.filter((r) => !skillFiles.has(r['uri'] as string)).slice(0, MAX_READS))
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
const limit = setTimeout(() => {
  emit({ step: 'run', ok: false, error: { message: `gave up after ${RUN_LIMIT_MS} ms` } });
  process.exit(2);
}, RUN_LIMIT_MS);
limit.unref();
await run(url);
process.exitCode = failures ? 1 : 0;
