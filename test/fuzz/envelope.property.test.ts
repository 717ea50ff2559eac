/**
 * @module test/fuzz/envelope.property — properties (fast-check) of the JSON-RPC envelope and of the MCP
 * 2026-07-28 `_meta` checks, against the fuzz suite's oracle (test/fuzz/harness/oracle.ts, written from the
 * JSON-RPC 2.0 text): any JSON text is classified without throwing, as the oracle says it must be answered
 * (with its id, with id null, or not at all); nesting past MAX_JSON_DEPTH is -32600, or -32602 when only
 * params are deep, at any depth; a server given any `_meta` answers once, never -32603.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, textExceedsDepth } from '../../runtime/jsonrpc/limits.ts';
import { parseFrame, serialize, type Incoming } from '../../runtime/jsonrpc/message.ts';
import { checkRequestMeta } from '../../runtime/mcp/stateless/meta.ts';
import { LATEST_STATELESS, requireRevision } from '../../runtime/mcp/revisions.ts';
import sample from '../../samples/recorded-server.ts';
import { catalogServerOptions } from '../../runtime/mcp/catalog/catalog.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { createLinkedPair } from '../../runtime/transports/transport.ts';
import { expectationOf, idKey } from './harness/oracle.ts';

/** What the server does with a classified frame, in the oracle's terms. */
function answerOf(msg: Incoming): 'answer' | 'null-answer' | 'none' {
  if (msg.kind === 'request') return 'answer';
  if (msg.kind === 'invalid') return msg.id === null ? 'null-answer' : 'answer';
  return 'none';
}

/** The key of a classified request's id, as the oracle writes keys (numbers as doubles read them). */
function keyOf(msg: Incoming): string | undefined {
  if (msg.kind !== 'request' && msg.kind !== 'invalid') return undefined;
  if (msg.id === null) return undefined;
  return typeof msg.id === 'string' ? `s:${msg.id}` : `n:${Number(String(msg.id))}`;
}

const id = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 300 }),
  fc.constantFrom(null, true, 1.5, 2 ** 53 + 2, 2 ** 62, 2 ** 63, -(2 ** 63), 1e300, [], {}),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map((n) => Number(n)),
);
const envelope = fc.record(
  {
    jsonrpc: fc.constantFrom<unknown>('2.0', '1.0', 2, null),
    id,
    method: fc.oneof(fc.constantFrom('ping', 'tools/call', 'initialize'), fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 })),
    params: fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })), fc.jsonValue({ maxDepth: 2 })),
    result: fc.jsonValue({ maxDepth: 2 }),
    error: fc.oneof(fc.record({ code: fc.integer(), message: fc.string() }), fc.jsonValue({ maxDepth: 2 })),
  },
  { requiredKeys: [] },
);

describe('the JSON-RPC envelope (fast-check)', () => {
  it('any JSON message is answered as JSON-RPC 2.0 says: with its id, with id null, or not at all', () => {
    fc.assert(
      fc.property(fc.oneof(envelope, fc.jsonValue({ maxDepth: 3 })), (value) => {
        const text = JSON.stringify(value);
        const msg = parseFrame(text, true);
        const expected = expectationOf(text, true);
        expect(answerOf(msg)).toBe(expected.kind);
        if (expected.kind === 'answer') expect(keyOf(msg)).toBe(expected.key);
      }),
      { numRuns: 5000 },
    );
  });

  it('any text is classified without throwing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const msg = parseFrame(text, true);
        expect(['request', 'notification', 'response', 'invalid', 'ignored']).toContain(msg.kind);
      }),
      { numRuns: 3000 },
    );
  });

  it('nesting past the limit is -32600, or -32602 with the id when only params are deep, at any depth', () => {
    const where = fc.constantFrom('params', 'id', 'error', 'extra', 'notification');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.constantFrom(1, 1_000, 100_000), where, fc.boolean(), (depth, scale, at, arrays) => {
        const d = depth * scale > 200_000 ? depth : depth * scale;
        const deep = arrays ? `${'['.repeat(d)}0${']'.repeat(d)}` : `${'{"k":'.repeat(d)}0${'}'.repeat(d)}`;
        const text =
          at === 'params'
            ? `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":${deep}}}`
            : at === 'id'
              ? `{"jsonrpc":"2.0","id":${deep},"method":"ping"}`
              : at === 'error'
                ? `{"jsonrpc":"2.0","id":5,"error":${deep}}`
                : at === 'extra'
                  ? `{"jsonrpc":"2.0","id":5,"method":"ping","extra":${deep}}`
                  : `{"jsonrpc":"2.0","method":"ping","params":{"x":${deep}}}`;
        // The message is level 1; `id`, `error` and `extra` add one level, params.x two.
        const total = (at === 'params' || at === 'notification' ? 2 : 1) + d;
        const msg = parseFrame(text, true);
        if (total <= MAX_JSON_DEPTH) {
          expect(msg.kind).not.toBe('ignored');
          return;
        }
        if (at === 'params') expect(msg).toMatchObject({ kind: 'invalid', id: 5, error: { code: -32602 } });
        else if (at === 'error') expect(msg).toMatchObject({ kind: 'response', id: 5, error: { code: -32600 } });
        else if (at === 'notification') expect(msg.kind).toBe('ignored');
        else expect(msg).toMatchObject({ kind: 'invalid', id: at === 'id' ? null : 5, error: { code: -32600 } });
        // Whatever it is, its answer can be written.
        if (msg.kind === 'invalid') expect(() => serialize({ jsonrpc: '2.0', id: msg.id, error: msg.error })).not.toThrow();
      }),
      { numRuns: 400 },
    );
  });

  it('textExceedsDepth agrees with the depth of the value, strings with brackets and escapes included', () => {
    const depthOf = (v: unknown): number =>
      v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v as Record<string, unknown>).map(depthOf)) : 0;
    const tricky = fc.constantFrom('[[[', '{"}', '\\', '\\"[', '"]]"', '');
    fc.assert(
      fc.property(
        fc.tuple(fc.jsonValue({ maxDepth: 8 }), tricky).map(([v, t]) => [t, v, { [t]: [v, t] }]),
        fc.integer({ min: 0, max: 12 }),
        (value, max) => {
          expect(textExceedsDepth(JSON.stringify(value), max)).toBe(depthOf(value) > max);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("the oracle's id rule is MCP's: a string of at most 256 bytes, or an int64 integer", () => {
    expect(idKey('x'.repeat(256))).toBe(`s:${'x'.repeat(256)}`);
    expect(idKey('é'.repeat(129))).toBeUndefined();
    expect(idKey(2 ** 63)).toBeUndefined();
    expect(idKey(1.5)).toBeUndefined();
  });
});

describe('the 2026-07-28 _meta checks (fast-check)', () => {
  beforeAll(async () => {
    await requireRevision(LATEST_STATELESS);
  });

  const metaValue = fc.dictionary(
    fc.oneof(
      fc.constantFrom(
        'io.modelcontextprotocol/protocolVersion',
        'io.modelcontextprotocol/clientCapabilities',
        'io.modelcontextprotocol/clientInfo',
        'io.modelcontextprotocol/logLevel',
        'progressToken',
      ),
      fc.string({ maxLength: 12 }),
    ),
    fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom('2026-07-28', '2025-11-25', 'debug', { name: 'c', version: '1' }, { elicitation: { form: {} } }),
    ),
    { maxKeys: 5 },
  );

  it('either passes or throws -32602 / -32022, naming what is wrong in one line', () => {
    fc.assert(
      fc.property(metaValue, (meta) => {
        try {
          const checked = checkRequestMeta({ _meta: meta }, LATEST_STATELESS);
          expect(checked.protocolVersion).toBe('2026-07-28');
        } catch (err) {
          const { code, message } = err as { code?: number; message: string };
          expect([-32602, -32022]).toContain(code);
          expect(message).not.toContain('\n');
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('a server given any _meta on any method answers exactly once, and never -32603', async () => {
    const server = new McpServer(catalogServerOptions(sample));
    await fc.assert(
      fc.asyncProperty(
        metaValue,
        fc.constantFrom('ping', 'tools/list', 'tools/call', 'server/discover', 'resources/read'),
        fc.jsonValue({ maxDepth: 2 }),
        async (meta, method, extra) => {
          const [client, end] = createLinkedPair();
          const frames: string[] = [];
          client.start({ message: (text) => frames.push(text), close: () => {} });
          const conn = server.connect(end);
          client.send(JSON.stringify({ jsonrpc: '2.0', id: 'q', method, params: { name: 'add', arguments: { a: 1, b: 2 }, x: extra, _meta: meta } }));
          for (let i = 0; i < 50 && frames.length === 0; i++) await new Promise((r) => setTimeout(r, 2));
          client.close();
          await conn.finished;
          const answers = frames.map((f) => JSON.parse(f) as { id?: unknown; error?: { code: number } }).filter((f) => f.id === 'q');
          expect(answers).toHaveLength(1);
          expect(answers[0]!.error?.code).not.toBe(-32603);
        },
      ),
      { numRuns: 300 },
    );
  });
});
