/**
 * @module commands/serve — `wiregen serve <fixture> (--stdio | --http <port>)`: runs a fixture of this
 * repository (runtime/serve.ts).
 */
import { parseArgs } from 'node:util';
import { EXIT_BAD_INPUT, EXIT_OK } from '../errors.ts';
import type { Command } from './command.ts';

const HELP = `Usage: wiregen serve <fixture> (--stdio [--parse-errors] [--max-line-bytes <n>] | --http <port>)
                     [--handlers <set>] [--notifications]

Runs a fixture (schemas/fixtures/<fixture>.yaml, behaviours in fixtures/<fixture>.ts) as an MCP server that
speaks both eras: the handshake era (initialize, 2024-11-05 to 2025-11-25) and 2026-07-28. Newline-delimited
JSON on stdin/stdout; stdout carries protocol messages only, diagnostics go to stderr. Exits 0 when stdin closes.

Options:
  --stdio                 serve on stdin/stdout
  --http <port>           serve Streamable HTTP on 127.0.0.1:<port> (0: any free port) at /mcp; prints
                          {"conformanceReady":true,"url":"http://127.0.0.1:<port>/mcp"} when listening and
                          exits cleanly when stdin closes
  --parse-errors          answer a line that is not JSON with -32700 (JSON-RPC 2.0); by default such a
                          line gets no reply, as the official MCP SDK's stdio server does
  --max-line-bytes <n>    longest line accepted (default 4 MiB); a longer one is answered -32600, id null
  --handlers <set>        a handler set the fixture offers (default: base), e.g. golden --handlers extended
  --notifications         serve as a transport that can deliver change notifications: listChanged and
                          resources subscribe become true in both eras
  -h, --help              this help

Examples:
  wiregen serve fixture-server --stdio
  wiregen serve fixture-server --http 0`;

export const serve: Command = {
  summary: [['serve', 'run a fixture as an MCP server (stdio)']],
  help: HELP,
  async run(args, { out }) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        stdio: { type: 'boolean' },
        http: { type: 'string' },
        'parse-errors': { type: 'boolean' },
        handlers: { type: 'string' },
        notifications: { type: 'boolean' },
        'max-line-bytes': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) return (out(HELP), EXIT_OK);
    const [fixture] = positionals;
    const maxLineBytes = values['max-line-bytes'] === undefined ? undefined : Number(values['max-line-bytes']);
    const port = values.http === undefined ? undefined : Number(values.http);
    const badPort = port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536);
    if (
      !fixture ||
      positionals.length > 1 ||
      (values.stdio ?? false) === (port !== undefined) ||
      badPort ||
      (maxLineBytes !== undefined && !(Number.isInteger(maxLineBytes) && maxLineBytes > 0))
    ) {
      process.stderr.write(`${HELP}\n`);
      return EXIT_BAD_INPUT;
    }
    // The runtime is loaded only for this command: generating never depends on it.
    const { serveStdio, serveHttp } = await import('../../runtime/serve.ts');
    const choice = { ...(values.handlers ? { handlers: values.handlers } : {}), notifications: values.notifications ?? false };
    if (port !== undefined) {
      await serveHttp(fixture, port, choice);
      return EXIT_OK;
    }
    await serveStdio(fixture, { ...choice, parseErrors: values['parse-errors'] ?? false, ...(maxLineBytes ? { maxLineBytes } : {}) });
    return EXIT_OK;
  },
};
