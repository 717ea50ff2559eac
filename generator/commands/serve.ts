/**
 * @module commands/serve — `wiregen serve <target> (--stdio | --http <port>)`: runs an MCP server on stdio or
 * Streamable HTTP, or an A2A agent over HTTP (serve/target.ts says what a target is).
 */
import { parseArgs } from 'node:util';
import { EXIT_OK } from '../errors.ts';
import { type Command, usageError } from './command.ts';

const HELP = `Usage: wiregen serve <target> (--stdio [--parse-errors] [--max-line-bytes <n>] | --http <port> [--auth <config>] [--resumable])
                     [--handlers <set>] [--notifications] [--store <store>] [--public-url <url>] [--webhook-host <host>]...

Serves an MCP server (both eras: the handshake era, initialize, 2024-11-05 to 2025-11-25, and 2026-07-28)
on stdin/stdout or over Streamable HTTP, or an A2A agent over HTTP (JSON-RPC and HTTP+JSON bindings).

<target> is one of:
  a spec file (.yaml, .yml, .json)   its \`main\` field names the module to serve, relative to the spec
  a module (.js, .mjs; .ts with tsx installed)
                                     its default export is what the generated createServer or createAgent
                                     returns (or an McpServer or A2aServer); its \`handlerSets\` export holds
                                     the other sets --handlers chooses from
  a bare name                        fixtures/<name>.ts of the working directory (the wiregen repository's
                                     fixtures: wiregen serve golden --stdio)

On stdio, stdout carries protocol messages only (newline-delimited JSON), diagnostics go to stderr, and the
server exits 0 when stdin closes. Over HTTP it listens on 127.0.0.1, prints one line
{"ready":true,"url":"http://127.0.0.1:<port>/mcp"} (an agent: its origin) when listening, and exits cleanly
when stdin closes.

Options:
  --stdio                 serve MCP on stdin/stdout
  --http <port>           serve over HTTP on 127.0.0.1:<port> (0: any free port)
  --parse-errors          (stdio) answer a line that is not JSON with -32700 (JSON-RPC 2.0); by default such
                          a line gets no reply, as the official MCP SDK's stdio server does
  --max-line-bytes <n>    (stdio) longest line accepted (default 4 MiB); a longer one is answered -32600, id null
  --auth <config>         (MCP over HTTP) serve as an OAuth 2.1 protected resource: a YAML or JSON file with
                          resource, authorizationServers, verify ({jwt: {issuer}} or {introspection: …}) and
                          optional requiredScopes / methodScopes (its JSON Schema: dist/serve/auth.schema.json)
  --resumable             (MCP over HTTP) resumable SSE streams in handshake-era sessions: priming events,
                          event ids, replay after Last-Event-ID (SEP-1699; a 1 MiB replay log per session)
  --handlers <set>        a handler set the module exports in handlerSets (default: base, its default export)
  --notifications         (MCP) serve as a transport that can deliver change notifications: listChanged
                          becomes true in both eras, resources subscribe in 2026-07-28
  --store <store>         (A2A) where the agent keeps its tasks: memory (default), sqlite:<path> (a file, one
                          instance), or postgres:<url> (PostgreSQL; every instance serving the agent on the same
                          database shares its tasks, streams, cancellation and push delivery: README, Deployment)
  --public-url <url>      (A2A) the base URL clients reach the agent at (behind a proxy): the cards' interface
                          URLs become <url> followed by their paths; default: the address it listens on
                          (http://127.0.0.1:<port>). A signed card is served as signed.
  --webhook-host <host>   (A2A) a host push notifications may be sent to, beside the spec's webhooks.allowedHosts
                          (repeatable); https only, except on loopback hosts
  -h, --help              this help

Examples:
  wiregen serve server.yaml --stdio
  wiregen serve dist/server.js --http 3000
  wiregen serve golden --stdio --handlers extended
  wiregen serve research-agent --http 8080 --store postgres:postgres://agent@db.internal/agents
  wiregen serve test-runner --http 0 --webhook-host hooks.example.com --public-url https://agents.example.com/runner`;

/** A decimal integer from `min` to `max`, or undefined. */
function integer(text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

export const serve: Command = {
  summary: [['serve <target>', 'serve an MCP server (--stdio, --http) or an A2A agent (--http): spec, module or fixture']],
  help: HELP,
  async run(args, { out, base }) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        stdio: { type: 'boolean' },
        http: { type: 'string' },
        'parse-errors': { type: 'boolean' },
        handlers: { type: 'string' },
        notifications: { type: 'boolean' },
        'max-line-bytes': { type: 'string' },
        auth: { type: 'string' },
        store: { type: 'string' },
        resumable: { type: 'boolean' },
        'public-url': { type: 'string' },
        'webhook-host': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) return (out(HELP), EXIT_OK);
    const [target, ...extra] = positionals;
    if (target === undefined) throw usageError('serve', 'name what to serve: a spec file, a module or a fixture (wiregen serve --help)');
    if (extra.length) throw usageError('serve', `one target at a time; also given: ${extra.join(' ')}`);
    const stdio = values.stdio ?? false;
    if (stdio === (values.http !== undefined))
      throw usageError('serve', stdio ? 'give --stdio or --http <port>, not both' : 'give --stdio or --http <port>');
    const port = values.http === undefined ? undefined : integer(values.http, 0, 65535);
    if (values.http !== undefined && port === undefined)
      throw usageError('serve', `--http ${JSON.stringify(values.http)} is not a port: give an integer from 0 to 65535`);
    const rawMax = values['max-line-bytes'];
    const maxLineBytes = rawMax === undefined ? undefined : integer(rawMax, 1, Number.MAX_SAFE_INTEGER);
    if (rawMax !== undefined && maxLineBytes === undefined)
      throw usageError('serve', `--max-line-bytes ${JSON.stringify(rawMax)} is not a positive integer`);
    if (!stdio && (values['parse-errors'] || rawMax !== undefined))
      throw usageError('serve', `--${values['parse-errors'] ? 'parse-errors' : 'max-line-bytes'} is for --stdio`);
    if (values.resumable && stdio) throw usageError('serve', '--resumable is for --http: stdio streams cannot be resumed');
    if (values.auth !== undefined && stdio)
      throw usageError('serve', '--auth is for --http: stdio has no authorization (the host starting the server is trusted)');
    if (values.store !== undefined && stdio) throw usageError('serve', '--store is for A2A agents, served with --http <port>');
    const agentFlag = values['public-url'] !== undefined ? '--public-url' : values['webhook-host'] ? '--webhook-host' : undefined;
    if (agentFlag && stdio) throw usageError('serve', `${agentFlag} is for A2A agents, served with --http <port>`);
    const { checkPublicUrl, checkWebhookHosts, withWebhookHosts } = await import('../serve/agent.ts');
    const publicUrl = values['public-url'] === undefined ? undefined : checkPublicUrl(values['public-url']);
    const webhookHosts = checkWebhookHosts(values['webhook-host'] ?? []);
    // The runtime is loaded only for this command: generating never depends on it.
    const { resolveTarget } = await import('../serve/target.ts');
    const { serveHttp, serveStdio } = await import('../serve/run.ts');
    const cwd = base.root ?? process.cwd();
    const choice = {
      ...(values.handlers !== undefined ? { handlers: values.handlers } : {}),
      notifications: values.notifications ?? false,
    };
    if (values.store !== undefined) await (await import('../serve/store.ts')).checkStore(values.store);
    let served = await resolveTarget(target, cwd, choice);
    if (agentFlag && served.protocol !== 'a2a') throw usageError('serve', `${agentFlag} is for A2A agents; ${target} is an MCP server`);
    if (values.store !== undefined && served.protocol !== 'a2a')
      throw usageError('serve', `--store is for A2A agents; ${target} is an MCP server (its sessions: README, Deployment)`);
    if (served.protocol === 'a2a' && (webhookHosts.length || values.store !== undefined)) {
      // One new A2aServer of the module's options (the one it made is never started), with the flags' additions.
      const { A2aServer } = await import('@wiregen/runtime/a2a');
      const { store, cluster, ...options } = served.server.options;
      const kept = { ...(store ? { store } : {}), ...(cluster ? { cluster } : {}) };
      const where = values.store === undefined ? kept : await (await import('../serve/store.ts')).openStore(values.store, cwd);
      served = { ...served, server: new A2aServer({ ...options, ...withWebhookHosts(options, webhookHosts), ...where }) };
    }
    if (port !== undefined) {
      if (values.auth !== undefined && served.protocol !== 'mcp')
        throw usageError(
          'serve',
          `--auth protects MCP servers; ${target} is an A2A agent, which enforces its card's security schemes (a2aAuthenticate)`,
        );
      const authorization =
        values.auth === undefined ? undefined : await (await import('../serve/auth.ts')).loadAuthorization(values.auth, base.root ?? process.cwd());
      if (values.resumable && served.protocol !== 'mcp') throw usageError('serve', `--resumable is for MCP servers; ${target} is an A2A agent`);
      await serveHttp(served, port, authorization, values.resumable ? { resumability: {} } : {}, publicUrl);
      return EXIT_OK;
    }
    if (served.protocol !== 'mcp') throw usageError('serve', `${target} is an A2A agent: serve it over HTTP with --http <port>`);
    await serveStdio(served.server, { parseErrors: values['parse-errors'] ?? false, ...(maxLineBytes ? { maxLineBytes } : {}) });
    return EXIT_OK;
  },
};
