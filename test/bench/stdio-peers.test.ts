/**
 * @module test/bench/stdio-peers — tmcp as the bench runs it (bench/servers/tmcp-stdio.mjs, tmcp-http.mjs):
 * `add` 1 + 2 answered 3, as text and as structuredContent, over stdio in both eras and over HTTP
 * (2026-07-28, the answer an SSE stream); and the startup part's stdio kind, one round, yields its rows against
 * tmcp. No time is asserted (speed numbers belong to `npm run bench`).
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { addResultOk, tmcpHttp } from '../../bench/mcp-http/index.ts';
import { probe, startChecked } from '../../bench/lib/load.ts';
import { BENCH } from '../../bench/lib/proc.ts';
import { StdioClient } from '../../bench/lib/stdio-client.ts';
import { coldStdio } from '../../bench/startup/cold.ts';
import { kindRows, type Kind } from '../../bench/startup/index.ts';

const TMCP_STDIO = [join(BENCH, 'servers/tmcp-stdio.mjs')];
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

describe('tmcp as a peer', () => {
  const eras = [
    ['2026-07-28', { handshake: false, params: { name: 'add', arguments: { a: 1, b: 2 }, _meta: META } }],
    ['the handshake era', { handshake: true, params: { name: 'add', arguments: { a: 1, b: 2 } } }],
  ] as const;
  test.each(eras)('answers add over stdio, %s', { timeout: 20_000 }, async (_era, { handshake, params }) => {
    const c = new StdioClient(TMCP_STDIO);
    try {
      if (handshake) await c.handshake();
      const answer = await c.request('tools/call', params);
      expect(addResultOk(answer)).toBe(true);
    } finally {
      await c.stop();
    }
  });

  test('answers add over HTTP, 2026-07-28', { timeout: 20_000 }, async () => {
    const s = tmcpHttp();
    const { child, url } = await startChecked(s);
    try {
      const answer = await probe(url, s.request.headers, s.request.body);
      expect(answer.status).toBe(200);
      expect(answer.text).toMatch(/^event: message\ndata: /);
      expect(addResultOk(answer.json)).toBe(true);
    } finally {
      await child.stop();
    }
  });

  test('the startup part measures tmcp: its cold-start and idle RSS rows', { timeout: 40_000 }, async () => {
    // The part's own kind and row code (kindRows) with the real tmcp and SDK v2 servers; ours stood in for by
    // the bare ceiling, which answers the same bytes (building our packages takes longer than this test may).
    const args = { ours: [join(BENCH, 'servers/bare-stdio.mjs')], peer: [join(BENCH, 'servers/v2-stdio.mjs')], tmcp: TMCP_STDIO };
    const kind: Kind = {
      key: 'stdio-stateless',
      what: 'stdio, first answer: tools/call 2026-07-28',
      cold: (who) => coldStdio(args[who], 'stateless'),
      coldTarget: 'cold-start-stdio',
      rssTarget: 'idle-rss-stdio',
      tmcpTarget: 'cold-start-stdio-tmcp',
    };
    const rows = await kindRows(kind, 1, () => {});
    const tmcp = rows.filter((r) => r.ratioLabel === 'tmcp');
    expect(tmcp.map((r) => [r.metric, r.targetId])).toEqual([
      ['cold start ms', 'cold-start-stdio-tmcp'],
      ['idle RSS MiB', undefined],
    ]);
    for (const r of tmcp) expect(r.ratio).toBeGreaterThan(0);
    expect(rows.find((r) => r.subject.startsWith('tmcp 1.20') && r.metric === 'cold start ms')?.value).toBeGreaterThan(0);
  });
});
