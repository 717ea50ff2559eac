/**
 * @module jsonrpc/stderr — the default log of servers and transports: a line to standard error through
 * `process.stderr` where there is one (Node, Bun, Deno), `console.error` elsewhere (a Cloudflare Worker
 * without `nodejs_compat` has no `process`). `process` is looked up when a line is written, never at import.
 */

/** Writes `line` and a newline to standard error. */
export function stderrLine(line: string): void {
  const stderr = (globalThis as { process?: { stderr?: { write(s: string): unknown } } }).process?.stderr;
  if (stderr) stderr.write(`${line}\n`);
  else console.error(line);
}
