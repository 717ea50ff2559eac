/**
 * @module commands/serve — `wiregen serve <target> (--stdio | --http <port>)`: runs an MCP server on stdio or
 * Streamable HTTP, or an A2A agent over HTTP (serve/target.ts says what a target is).
 */
import { EXIT_OK } from '../errors.ts';
import { parseCommand } from './args.ts';
import { type Command, usageError } from './command.ts';

const HELP = `Usage: wiregen serve <target> --stdio [--parse-errors] [--max-line-bytes <n>]
       wiregen serve <target> --http <port> [--host <host>] [--exit-on-stdin-close] [--shutdown-timeout <ms>]
                     [--auth <config>] [--resumable] [--allowed-host <name>]... [--allowed-origin <host>]...
                     [--store <store>] [--public-url <url>] [--webhook-host <host>]...
       (both: [--handlers <set>] [--notifications] [--verbose])

Serves an MCP server (both eras: the handshake era, initialize, 2024-11-05 to 2025-11-25, and 2026-07-28)
on stdin/stdout or over Streamable HTTP, or an A2A agent over HTTP (JSON-RPC and HTTP+JSON bindings).

<target> is one of:
  a spec file (.yaml, .yml, .json)   its \`main\` field names the module to serve, relative to the spec
  a module (.js, .mjs; .ts with tsx installed)
                                     its default export is what the generated createServer or createAgent
                                     returns (or an McpServer or A2aServer, or an mcpServer() builder, which
                                     serve builds); its \`handlerSets\` export holds the other sets --handlers
                                     chooses from
  a bare name                        samples/<name>.ts of the working directory (the wiregen repository's
                                     samples: wiregen serve golden --stdio)

On stdio, stdout carries protocol messages only (newline-delimited JSON); one line on stderr says the server
waits for a client, and diagnostics go there too. The server exits 0 when stdin closes (the MCP client's way
to shut a stdio server down) once every request read has been answered.

Over HTTP it listens on 127.0.0.1 (--host to choose), prints one line
{"ready":true,"url":"http://127.0.0.1:<port>/mcp"} (an agent: its origin) when listening, and serves until
SIGTERM or SIGINT (Ctrl-C): it never reads stdin, so it runs under nohup, docker or systemd with stdin closed.
A stop is graceful: no new connection, the requests in flight (and an agent's running tasks) get up to
--shutdown-timeout to finish, the server and its store close, exit 0. A second signal stops at once.

A module that fails to load or to build its server (a definition error, a missing behaviour, an import that
does not resolve) is one line naming it, exit 2; WIREGEN_DEBUG=1 or --verbose adds the stack.

Options:
  --stdio                 serve MCP on stdin/stdout
  --http <port>           serve over HTTP on <port> (0: any free port)
  --host <host>           (HTTP) the address to listen on (default 127.0.0.1): 0.0.0.0 or :: for every
                          interface (a container), or one address. MCP off loopback: see --allowed-host
  --exit-on-stdin-close   (HTTP) also stop, as gracefully, when stdin ends (a parent process or a test
                          harness stops the server by closing its stdin)
  --shutdown-timeout <ms> (HTTP, and stdio on a signal) how long a stop waits for requests in flight
                          (default 5000)
  --parse-errors          (stdio) answer a line that is not JSON with -32700 (JSON-RPC 2.0); by default such
                          a line gets no reply, as the official MCP SDK's stdio server does
  --max-line-bytes <n>    (stdio) longest line accepted (default 4 MiB); a longer one is answered -32600, id null
  --auth <config>         (MCP over HTTP) serve as an OAuth 2.1 protected resource: a YAML or JSON file with
                          resource, authorizationServers, verify ({jwt: {issuer}} or {introspection: …}) and
                          optional requiredScopes / methodScopes (its JSON Schema: dist/serve/auth.schema.json)
  --resumable             (MCP over HTTP) resumable SSE streams in handshake-era sessions: priming events,
                          event ids, replay after Last-Event-ID (SEP-1699; a 1 MiB replay log per session)
  --allowed-host <name>   (MCP over HTTP) a name the Host header may carry (repeatable): the DNS-rebinding
                          check. On loopback the loopback names are always allowed (add the name a local
                          proxy forwards); off loopback without it the Host header is not checked
  --allowed-origin <host> (MCP over HTTP) a host a browser's Origin may name, beside the loopback ones
                          (repeatable); a request with any other Origin is refused 403
  --handlers <set>        a handler set the module exports in handlerSets (default: base, its default export)
  --notifications         (MCP) serve as a transport that can deliver change notifications: listChanged
                          becomes true in both eras, resources subscribe in 2026-07-28
  --store <store>         (A2A) where the agent keeps its tasks: memory (default), sqlite:<path> (a file, one
                          instance), or postgres:<url> (PostgreSQL; every instance serving the agent on the same
                          database shares its tasks, streams, cancellation and push delivery: README, Deployment)
  --public-url <url>      (A2A) the base URL clients reach the agent at (behind a proxy, or listening on
                          0.0.0.0): the cards' interface URLs become <url> followed by their paths; default: the
                          address it listens on (http://127.0.0.1:<port>). A signed card is served as signed.
  --webhook-host <host>   (A2A) a host push notifications may be sent to, beside the spec's webhooks.allowedHosts
                          (repeatable); https only, except on loopback hosts
  --verbose               print the stack of an error the served module throws while it loads
  -h, --help              this help

Examples:
  wiregen serve server.yaml --stdio
  wiregen serve dist/server.js --http 3000
  wiregen serve dist/server.js --http 8080 --host 0.0.0.0 --allowed-host mcp.example.com
  wiregen serve golden --stdio --handlers extended
  wiregen serve research-agent --http 8080 --store postgres:postgres://agent@db.internal/agents
  wiregen serve test-runner --http 0 --webhook-host hooks.example.com --public-url https://agents.example.com/runner`;

/** A decimal integer from `min` to `max`, or undefined. */
function integer(text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

const OPTIONS = {
  stdio: { type: 'boolean' },
  http: { type: 'string' },
  host: { type: 'string' },
  'exit-on-stdin-close': { type: 'boolean' },
  'shutdown-timeout': { type: 'string' },
  'parse-errors': { type: 'boolean' },
  handlers: { type: 'string' },
  notifications: { type: 'boolean' },
  'max-line-bytes': { type: 'string' },
  auth: { type: 'string' },
  store: { type: 'string' },
  resumable: { type: 'boolean' },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  'public-url': { type: 'string' },
  'webhook-host': { type: 'string', multiple: true },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The flags only an HTTP server takes (a CliError names the first one given with --stdio). */
const HTTP_ONLY = ['host', 'exit-on-stdin-close', 'allowed-host', 'allowed-origin'] as const;

export const serve: Command = {
  summary: [['serve <target>', 'serve an MCP server (--stdio, --http) or an A2A agent (--http): spec, module or sample']],
  help: HELP,
  async run(args, { out, base }) {
    const { values, positionals } = parseCommand('serve', args, OPTIONS);
    if (values.help) return (out(HELP), EXIT_OK);
    // The stack of what the module throws while loading, beside its one line (cli.ts prints it).
    if (values.verbose) process.env['WIREGEN_DEBUG'] = '1';
    const [target, ...extra] = positionals;
    if (target === undefined) throw usageError('serve', 'name what to serve: a spec file, a module or a sample (wiregen serve --help)');
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
    const rawShutdown = values['shutdown-timeout'];
    const shutdownMs = rawShutdown === undefined ? undefined : integer(rawShutdown, 0, 24 * 3600 * 1000);
    if (rawShutdown !== undefined && shutdownMs === undefined)
      throw usageError('serve', `--shutdown-timeout ${JSON.stringify(rawShutdown)} is not a number of milliseconds`);
    if (!stdio && (values['parse-errors'] || rawMax !== undefined))
      throw usageError('serve', `--${values['parse-errors'] ? 'parse-errors' : 'max-line-bytes'} is for --stdio`);
    const httpOnly = HTTP_ONLY.find((f) => values[f] !== undefined);
    if (httpOnly && stdio)
      throw usageError(
        'serve',
        httpOnly === 'exit-on-stdin-close'
          ? '--exit-on-stdin-close is for --http: a stdio server always ends with its stdin'
          : `--${httpOnly} is for --http`,
      );
    if (values.resumable && stdio) throw usageError('serve', '--resumable is for --http: stdio streams cannot be resumed');
    if (values.auth !== undefined && stdio)
      throw usageError('serve', '--auth is for --http: stdio has no authorization (the host starting the server is trusted)');
    if (values.store !== undefined && stdio) throw usageError('serve', '--store is for A2A agents, served with --http <port>');
    const agentFlag = values['public-url'] !== undefined ? '--public-url' : values['webhook-host'] ? '--webhook-host' : undefined;
    if (agentFlag && stdio) throw usageError('serve', `${agentFlag} is for A2A agents, served with --http <port>`);
    const { admission, checkHost, checkHostName } = await import('../serve/host.ts');
    const host = values.host === undefined ? undefined : checkHost(values.host);
    const allowedHosts = (values['allowed-host'] ?? []).map((h) => checkHostName('--allowed-host', h));
    const allowedOrigins = (values['allowed-origin'] ?? []).map((h) => checkHostName('--allowed-origin', h));
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
    const mcpFlag = allowedHosts.length ? '--allowed-host' : allowedOrigins.length ? '--allowed-origin' : undefined;
    if (mcpFlag && served.protocol !== 'mcp') throw usageError('serve', `${mcpFlag} is for MCP servers; ${target} is an A2A agent`);
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
          `--auth protects MCP servers; ${target} is an A2A agent, which enforces its card's security schemes with the verifiers its module gives createAgent`,
        );
      const authorization =
        values.auth === undefined ? undefined : await (await import('../serve/auth.ts')).loadAuthorization(values.auth, base.root ?? process.cwd());
      if (values.resumable && served.protocol !== 'mcp') throw usageError('serve', `--resumable is for MCP servers; ${target} is an A2A agent`);
      await serveHttp(served, {
        port,
        ...(host !== undefined ? { host } : {}),
        ...(authorization ? { authorization } : {}),
        mcp: { ...(values.resumable ? { resumability: {} } : {}), ...admission(host ?? '127.0.0.1', allowedHosts, allowedOrigins) },
        ...(publicUrl !== undefined ? { publicUrl } : {}),
        exitOnStdinClose: values['exit-on-stdin-close'] ?? false,
        ...(shutdownMs !== undefined ? { shutdownMs } : {}),
      });
      return EXIT_OK;
    }
    if (served.protocol !== 'mcp') throw usageError('serve', `${target} is an A2A agent: serve it over HTTP with --http <port>`);
    await serveStdio(served.server, {
      parseErrors: values['parse-errors'] ?? false,
      ...(maxLineBytes ? { maxLineBytes } : {}),
      name: target,
      ...(shutdownMs !== undefined ? { shutdownMs } : {}),
    });
    return EXIT_OK;
  },
};
