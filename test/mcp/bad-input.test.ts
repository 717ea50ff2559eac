/**
 * Bad input on stdio: one server process gets 1,000 malformed lines (test/helpers/malformed-lines.ts), then a
 * valid initialize. It must answer that initialize, still be running, and exit 0 when stdin closes; and
 * everything it wrote was a JSON-RPC error (-32700, -32600 or -32602) whose id is null or the usable id of a
 * line it answers, at most once each. How many replies there are is not asserted: lines that are not JSON
 * and notifications may get none.
 */
import { describe, expect, it } from 'vitest';
import { clip } from '../helpers/json-diff.ts';
import { malformedLines } from '../helpers/malformed-lines.ts';
import { startServer } from '../helpers/stdio-server.ts';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 'ok',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const ERROR_CODES = [-32700, -32600, -32602];
/** Time for the server to get through ~14 MB of bad lines and answer the initialize. */
const ANSWER_TIMEOUT_MS = 60_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with one stdout line written in answer to a malformed line; undefined when nothing is. */
function checkReply(line: string, usable: Map<string, string>, answered: Set<string>): string | undefined {
  let reply: unknown;
  try {
    reply = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (!isObject(reply)) return 'not a JSON object';
  if (reply['jsonrpc'] !== '2.0') return 'jsonrpc is not "2.0"';
  if ('result' in reply) return 'a result, not an error';
  const error = reply['error'];
  if (!isObject(error)) return 'no error object';
  if (!ERROR_CODES.includes(error['code'] as number)) return `error code ${JSON.stringify(error['code'])} is not one of ${ERROR_CODES.join(', ')}`;
  if (typeof error['message'] !== 'string') return 'error.message is not a string';
  if (!('id' in reply)) return 'no id member (an error whose id is unknown carries "id": null)';
  if (reply['id'] === null) return undefined;
  const key = JSON.stringify(reply['id']);
  if (!usable.has(key)) return `id ${clip(key, 80)} is not a usable id of any line sent (an unusable id is answered with null)`;
  if (answered.has(key)) return `id ${clip(key, 80)} (${usable.get(key)}) answered twice`;
  answered.add(key);
  return undefined;
}

describe('MCP stdio server under bad input', () => {
  it('survives 1,000 malformed lines, answers each with a JSON-RPC error or nothing, then serves initialize and exits 0', async () => {
    const lines = malformedLines(1000);
    /** Usable id (JSON text) → the kind of line that carried it. */
    const usable = new Map(lines.filter((l) => l.id !== undefined).map((l) => [JSON.stringify(l.id), l.kind]));
    const answered = new Set<string>();
    const problems: string[] = [];
    const server = startServer();
    try {
      for (const line of lines) server.send(line.text);
      server.sendJson(INITIALIZE);

      let reply: Json | undefined;
      let replies = 0;
      const deadline = Date.now() + ANSWER_TIMEOUT_MS;
      while (!reply) {
        const got = await server.nextLine(Math.max(1, deadline - Date.now()));
        if (got.kind !== 'line') {
          let state = `no answer to initialize within ${ANSWER_TIMEOUT_MS} ms`;
          if (got.kind === 'eof') {
            const exit = await server.close(2_000);
            state = `stdout ended before the answer to initialize (process exited with code ${exit.code}, signal ${exit.signal})`;
          }
          const detail = [`${replies} replies before`, ...problems, 'stderr (tail):', clip(server.stderr().slice(-4000), 4000)];
          throw new Error(`${state}\n${detail.join('\n')}`);
        }
        const parsed = parseObject(got.line);
        if (parsed?.['id'] === 'ok') reply = parsed;
        else {
          replies++;
          const problem = checkReply(got.line, usable, answered);
          if (problem && problems.length < 20) problems.push(`reply #${replies}: ${problem}: ${clip(got.line, 300)}`);
        }
      }

      expect(problems, `${problems.length} bad replies among ${replies}`).toEqual([]);
      expect(reply).toMatchObject({ jsonrpc: '2.0', id: 'ok', result: { protocolVersion: '2025-11-25' } });
      expect((reply['result'] as Json)['serverInfo']).toEqual({ name: 'fixture-server', version: '1.0.0' });
      expect(server.alive(), 'the process is still running').toBe(true);

      // A server that answers out of order may still have errors to write; they obey the same rules.
      const exit = await server.close();
      for (const line of exit.rest) {
        const problem = checkReply(line, usable, answered);
        if (problem) problems.push(`after initialize: ${problem}: ${clip(line, 300)}`);
      }
      expect(problems).toEqual([]);
      expect({ code: exit.code, signal: exit.signal, timedOut: exit.timedOut }).toEqual({ code: 0, signal: null, timedOut: false });
    } finally {
      server.kill();
    }
  });
});

function parseObject(line: string): Json | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
