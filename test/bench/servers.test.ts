/**
 * @module test/bench/servers — the benchmark's servers answer (a smoke test, seconds: `npm run bench` itself is
 * not part of `npm test`). Each HTTP server of bench/servers/ is started as the bench starts it and must
 * give the bench's request the right answer (the bench's own check: `add` 1 + 2 is 3 as text and as
 * structuredContent; SendMessage completes the task with its artifact); each stdio server must answer a
 * tools/call in the eras the bench drives it in, and the bare stdio ceiling the very lines ours answers. The
 * peers run as plain JavaScript, as in the bench; ours run from sources under tsx here (the bench runs them
 * from the built packages, which take a build).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import researchAgent from '../../samples/research-agent.ts';
import { SEND_MESSAGE } from '../../bench/a2a/index.ts';
import { startChecked, type HttpSubject } from '../../bench/lib/load.ts';
import { BENCH, TSX } from '../../bench/lib/proc.ts';
import { StdioClient } from '../../bench/lib/stdio-client.ts';
import { addResultOk, LEGACY_REQUEST, LITE_REQUEST, MODERN_REQUEST } from '../../bench/mcp-http/index.ts';

const servers = join(BENCH, 'servers');
const tmp = mkdtempSync(join(tmpdir(), 'wiregen-bench-test-'));
const card = join(tmp, 'card.json');
writeFileSync(card, JSON.stringify(researchAgent.card));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const completed = (json: unknown) =>
  (json as { result?: { task?: { status?: { state?: string } } } })?.result?.task?.status?.state === 'TASK_STATE_COMPLETED';

const HTTP: Record<string, Omit<HttpSubject, 'key' | 'label'>> = {
  'ours: listenMcpHttp': { args: [...TSX, join(servers, 'wiregen-http.ts'), '--mode', 'listen'], request: MODERN_REQUEST, check: addResultOk },
  'ours: mcpNodeHandler': { args: [...TSX, join(servers, 'wiregen-http.ts'), '--mode', 'node'], request: MODERN_REQUEST, check: addResultOk },
  'ours: mcpFetchHandler': { args: [...TSX, join(servers, 'wiregen-http.ts'), '--mode', 'fetch'], request: MODERN_REQUEST, check: addResultOk },
  'SDK v2': { args: [join(servers, 'v2-http.mjs')], request: MODERN_REQUEST, check: addResultOk },
  // The sdk-compat part: the SDK v2 file on @wiregen/runtime/sdk (from sources here, through tsx's paths).
  'SDK v2 code on @wiregen/runtime/sdk': {
    args: [...TSX, '--import', join(servers, 'on-wiregen.mjs'), join(servers, 'v2-http.mjs')],
    request: MODERN_REQUEST,
    check: addResultOk,
  },
  'SDK v1 node:http': { args: [join(servers, 'v1-http.mjs'), '--mode', 'node'], request: LEGACY_REQUEST, check: addResultOk },
  'SDK v1 express': { args: [join(servers, 'v1-http.mjs'), '--mode', 'express'], request: LEGACY_REQUEST, check: addResultOk },
  'bare node:http': { args: [join(servers, 'bare-http.mjs')], request: MODERN_REQUEST, check: addResultOk },
  'mcp-lite': { args: [join(servers, 'mcp-lite-http.mjs')], request: LITE_REQUEST, check: addResultOk },
  'ours: A2A': { args: [...TSX, join(servers, 'wiregen-a2a.ts')], request: SEND_MESSAGE, check: completed },
  '@a2a-js/sdk': { args: [join(servers, 'a2a-sdk.mjs'), card], request: SEND_MESSAGE, check: completed },
};

describe.concurrent('the bench servers answer the bench request', () => {
  for (const [label, s] of Object.entries(HTTP))
    test(`HTTP: ${label}`, async () => {
      // startChecked throws unless the answer is HTTP 200 and passes the subject's check.
      const { child } = await startChecked({ key: label, label, ...s });
      await child.stop();
    });

  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const STDIO: Record<string, { args: string[]; eras: ('handshake' | 'stateless')[] }> = {
    ours: { args: [...TSX, join(servers, 'wiregen-stdio.ts')], eras: ['handshake', 'stateless'] },
    'SDK v2': { args: [join(servers, 'v2-stdio.mjs')], eras: ['handshake', 'stateless'] },
    'SDK v1': { args: [join(servers, 'v1-stdio.mjs')], eras: ['handshake'] },
  };
  for (const [label, s] of Object.entries(STDIO))
    for (const era of s.eras)
      test(`stdio: ${label}, ${era}`, async () => {
        const c = new StdioClient(s.args);
        try {
          if (era === 'handshake') await c.handshake();
          const params = era === 'handshake' ? { name: 'add', arguments: { a: 1, b: 2 } } : { name: 'add', arguments: { a: 2, b: 5 }, _meta: META };
          const res = await c.request('tools/call', params);
          expect(res['result']).toMatchObject({ structuredContent: { result: era === 'handshake' ? 3 : 7 } });
        } finally {
          await c.stop();
        }
      });

  // The ceiling answers with bytes copied from ours: the same lines as ours for the same requests (ids 1, 2, …
  // alike on both), in both eras, the request's id written in each.
  const INITIALIZE = JSON.stringify({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } });
  const ADD = { name: 'add', arguments: { a: 1, b: 2 } };
  const CALLS = {
    handshake: ['initialize', JSON.stringify(ADD), JSON.stringify(ADD)],
    stateless: [JSON.stringify({ ...ADD, _meta: META }), JSON.stringify({ ...ADD, _meta: META })],
  };
  for (const [era, calls] of Object.entries(CALLS))
    test(`stdio: bare (ceiling), ${era}: the lines ours answers`, async () => {
      const talk = async (args: string[]) => {
        const c = new StdioClient(args);
        try {
          const lines: string[] = [];
          for (const params of calls) {
            const init = params === 'initialize';
            lines.push(await c.requestLine(init ? '"initialize"' : '"tools/call"', init ? INITIALIZE : params));
            if (init) c.notify('notifications/initialized');
          }
          return lines;
        } finally {
          await c.stop();
        }
      };
      const [ours, bare] = await Promise.all([talk([...TSX, join(servers, 'wiregen-stdio.ts')]), talk([join(servers, 'bare-stdio.mjs')])]);
      expect(bare).toEqual(ours);
      // Independent of ours: each answer carries its request's id, and the call's answer is add's.
      bare.forEach((line, i) => expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0', id: i + 1 }));
      expect(JSON.parse(bare.at(-1)!)).toMatchObject({ result: { structuredContent: { result: 3 } } });
    });
});
