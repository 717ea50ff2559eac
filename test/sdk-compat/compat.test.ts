/**
 * The same server code on the official SDK v2 (`@modelcontextprotocol/server` 2.4.0) and on wiregen
 * (`@wiregen/runtime/sdk`, the server file's imports changed by on-wiregen.mjs and nothing else), called by the
 * official clients (`@modelcontextprotocol/sdk` 1.32.2, `@modelcontextprotocol/client` 2.4.0 in legacy and
 * auto modes) over stdio and Streamable HTTP: every answer wiregen gives is the SDK's (scenarios.ts), but for
 * the differences docs/sdk-migration.md lists, each adjusted below with its reason.
 */
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { connect, FLAVOURS, serverArgs, startHttp, stopAll, type Connected, type Flavour, type Runtime } from './harness.ts';
import * as scenarios from './scenarios.ts';

afterAll(stopAll);

type Target = { stdio: string } | { http: URL };
async function on<T>(runtime: Runtime, flavour: Flavour, target: (runtime: Runtime) => Target | Promise<Target>, run: (c: Connected) => Promise<T>) {
  const c = await connect(flavour, await target(runtime), runtime);
  try {
    return { value: await run(c), notifications: c.notifications, version: c.version };
  } finally {
    await c.close();
  }
}

/** Runs `run` against the server on both runtimes, the SDK first. */
async function both<T>(flavour: Flavour, target: (runtime: Runtime) => Target | Promise<Target>, run: (c: Connected) => Promise<T>) {
  const sdk = await on('sdk', flavour, target, run);
  const wiregen = await on('wiregen', flavour, target, run);
  return { sdk, wiregen };
}

/** Each answer without the 2026-07-28 result envelope ($def ResultMetaObject serverInfo; CacheableResult ttlMs, cacheScope). */
function withoutEnvelope(transcript: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(transcript).map(([k, v]) => {
      if (typeof v !== 'object' || v === null) return [k, v];
      const { _meta, ttlMs, cacheScope, ...rest } = v as Record<string, unknown>;
      return [k, rest];
    }),
  );
}

const stdio = (file: string) => () => ({ stdio: file });
const http = (file: string) => (runtime: Runtime) => startHttp(file, runtime).then((url) => ({ http: url }));

describe.each(FLAVOURS)('%s', (flavour) => {
  it('notes (stdio, serveStdio): every answer is the SDK one', async () => {
    const { sdk, wiregen } = await both(flavour, stdio('notes.ts'), scenarios.notes);
    expect(wiregen.version).toBe(sdk.version);
    expect(wiregen.value).toEqual(sdk.value);
    expect(sdk.value['summarize, aborted']).toBe('aborted');
  });

  it('notes: summarize reports progress on both', async () => {
    const { sdk, wiregen } = await both(flavour, stdio('notes.ts'), scenarios.notesProgress);
    // Both SDK clients may drop progress that arrives in one chunk with the response over stdio
    // (test/interop/README.md), so the count is not compared; the first notification is.
    expect(sdk.value[0]).toEqual({ progress: 1, total: 4, message: 'step 1 of 4' });
    expect(wiregen.value[0]).toEqual(sdk.value[0]);
  });

  it('catalog (Streamable HTTP, createMcpHandler): every answer is the SDK one', async () => {
    const { sdk, wiregen } = await both(flavour, http('catalog-http.ts'), scenarios.catalog);
    expect(wiregen.version).toBe(sdk.version);
    expect(wiregen.value).toEqual(sdk.value);
  });

  it('interactive (stdio): elicitation, sampling, progress, cancellation, handles', async () => {
    const { sdk, wiregen } = await both(flavour, stdio('interactive.ts'), scenarios.interactive);
    if (flavour === 'v2-auto') {
      // 2026-07-28 has no server-to-client requests: the SDK's elicitInput and requestSampling throw there
      // (their text becomes an isError result), where wiregen asks in an input_required round
      // (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr) and the callback gets
      // the client's answer, as the guide shows it in the handshake era (docs/servers/elicitation.md of the SDK).
      for (const key of ['collect-feedback (elicitation)', 'haiku (sampling)']) {
        expect(sdk.value[key]).toMatchObject({
          isError: true,
          content: [{ text: expect.stringContaining('not available on protocol revision 2026-07-28') }],
        });
      }
      expect(wiregen.value['collect-feedback (elicitation)']).toMatchObject({
        content: [{ type: 'text', text: 'Recorded: {"rating":5,"comment":"Smooth setup"}' }],
      });
      expect(wiregen.value['haiku (sampling)']).toMatchObject({ content: [{ type: 'text', text: 'test-model: Autumn moonlight' }] });
      const { 'collect-feedback (elicitation)': _e, 'haiku (sampling)': _s, ...rest } = wiregen.value;
      const { 'collect-feedback (elicitation)': _e2, 'haiku (sampling)': _s2, ...expected } = sdk.value;
      expect(rest).toEqual(expected);
    } else expect(wiregen.value).toEqual(sdk.value);
    expect(wiregen.notifications).toEqual(sdk.notifications);
  });

  it('connect(new StdioServerTransport())', async () => {
    const { sdk, wiregen } = await both(flavour, stdio('connect-stdio.ts'), scenarios.adder);
    if (flavour === 'v2-auto') {
      // The SDK's McpServer.connect serves the handshake era only (its 2026-07-28 entries are serveStdio and
      // createMcpHandler), so the auto client falls back to 2025-11-25; wiregen's connect serves both eras, so
      // the answers carry the 2026-07-28 envelope (serverInfo in _meta, cache hints), which is taken off here.
      expect(sdk.version).toBe('2025-11-25');
      expect(wiregen.version).toBe('2026-07-28');
      expect(withoutEnvelope(wiregen.value)).toEqual(sdk.value);
    } else expect(wiregen.value).toEqual(sdk.value);
  });
});

describe.each(['sdk-1.32.2', 'v2-legacy'] as const)('%s, handshake era', (flavour) => {
  it('logging: notifications/message at the level the client set', async () => {
    const { sdk, wiregen } = await both(flavour, stdio('interactive.ts'), scenarios.logging);
    expect(wiregen.value).toEqual(sdk.value);
    expect(wiregen.notifications).toEqual(sdk.notifications);
    expect(sdk.notifications.length).toBeGreaterThan(0);
  });
});

describe('the answers the SDK guide documents', () => {
  it.each(['sdk', 'wiregen'] as const)('on %s', async (runtime) => {
    const { value } = await on(runtime, 'v2-auto', http('catalog-http.ts'), scenarios.catalog);
    // docs/servers/tools.md, docs/servers/errors.md and docs/servers/resources.md of the SDK (v2.4.0's guide).
    expect(value['search']).toMatchObject({ content: [{ type: 'text', text: 'Travel mug\nMug rack' }] });
    expect(value['search, limit past its maximum']).toMatchObject({
      content: [{ type: 'text', text: 'Input validation error: Invalid arguments for tool search: limit: Too big: expected number to be <=50' }],
      isError: true,
    });
    expect(value['product-details']).toMatchObject({
      content: [{ type: 'text', text: '{"name":"Travel mug","price":24}' }],
      structuredContent: { name: 'Travel mug', price: 24 },
    });
    expect(value['delete-note, thrown']).toMatchObject({ content: [{ type: 'text', text: 'Cannot delete "drafts": no such note' }], isError: true });
    expect(value['read note://42, ProtocolError']).toEqual({ error: { code: -32602, message: 'Note ids are lowercase letters, got "42"' } });
    expect(value['read note://archived, ResourceNotFoundError']).toEqual({
      error: { code: -32602, message: 'Resource not found: note://archived', data: { uri: 'note://archived' } },
    });
    expect((value['resources/list'] as { resources: { uri: string }[] }).resources.map((r) => r.uri)).toEqual([
      'config://app',
      'report://latest',
      'teams://core/roster',
      'teams://growth/roster',
    ]);
    expect(value['read users://7/profile']).toMatchObject({
      contents: [{ uri: 'users://7/profile', mimeType: 'application/json', text: '{"userId":"7","plan":"pro"}' }],
    });
  });

  it('on wiregen, the server files import @wiregen/runtime/sdk (on-wiregen.mjs)', async () => {
    const child = spawn(process.execPath, serverArgs('connect-stdio.ts', 'wiregen'), {
      cwd: ROOT,
      env: { ...process.env, SDK_COMPAT_TRACE: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let seen = '';
    child.stderr.on('data', (d: Buffer) => void (seen += d.toString()));
    await vi.waitFor(() => expect(seen).toMatch(/@modelcontextprotocol\/server\/stdio -> file:.*\/runtime\/sdk\/stdio\.ts/), {
      timeout: 30_000,
      interval: 100,
    });
    expect(seen).toMatch(/@modelcontextprotocol\/server -> file:.*\/runtime\/sdk\/index\.ts/);
    child.kill('SIGKILL');
  });
});
