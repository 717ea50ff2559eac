/**
 * The A2A 101 kit (kit/): `npm run a2a-kit -- --check` in process (a fresh capture on free ports compared
 * byte for byte with the committed kit/out/), what the output may not contain (ports other than the written
 * ones, real time), the folder comparison, the seeded ids and clock, and the signed card.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { card as deployerCard } from '../../generated/samples/deployer/index.ts';
import { check, compareDirs, DEFAULT_OUT, writeOut } from '../../kit/run.ts';
import { CLOCK_START, kitClock, seededIds } from '../../kit/ids.ts';
import { canonicalCard, demoSigningKey, jcs, jwksOf, signCard, verifyCard } from '../../kit/signing.ts';
import { describeFrame, pretty } from '../../kit/transcript.ts';
import { sseFrames } from '../../kit/recorder.ts';
import type { AgentCard } from '../../runtime/a2a/types.ts';
import { ROOT } from '../helpers/project.ts';

/** `npm run a2a-kit -- <args>`, as the script runs it. */
const kitCli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'kit/run.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });

const SEED_FILES = [
  '01-agent-cards.http',
  '02-message-reply.http',
  '03-blocking-task.http',
  '04-polling.http',
  '05-streaming.http',
  '06-input-required.http',
  '07-auth-required.http',
  '08-rejected.http',
  '09-failed.http',
  '10-cancel.http',
  '11-errors.http',
  '12-list-tasks.http',
  '13-history.http',
  '14-resubscribe.http',
  '15-push.http',
  '16-rest-binding.http',
  '17-signed-card.txt',
  '18-extended-card.http',
  '19-planner.http',
  '19-planner.log',
];

describe('npm run a2a-kit -- --check', () => {
  it('a capture on free ports equals the committed kit/out/, byte for byte', async () => {
    expect(await check(DEFAULT_OUT, 0)).toEqual([]);
  });

  it('kit/out/ holds every file the seed lists, and events files only for the streams of its transcripts', () => {
    const files = readdirSync(DEFAULT_OUT);
    expect(files).toEqual(expect.arrayContaining(SEED_FILES));
    for (const f of files.filter((n) => n.endsWith('.events.json'))) {
      const [base, n] = f.split('.') as [string, string];
      expect(readFileSync(join(DEFAULT_OUT, `${base}.http`), 'utf8')).toContain(`### ${n}. `);
      expect(JSON.parse(readFileSync(join(DEFAULT_OUT, f), 'utf8'))).toBeInstanceOf(Array);
    }
    expect(files.filter((f) => !SEED_FILES.includes(f) && !f.endsWith('.events.json'))).toEqual([]);
  });

  it("the output names only the written addresses (41241–41244) and only the kit clock's day", () => {
    for (const f of readdirSync(DEFAULT_OUT)) {
      const text = readFileSync(join(DEFAULT_OUT, f), 'utf8');
      for (const m of text.matchAll(/127\.0\.0\.1:(\d+)/g)) expect(['41241', '41242', '41243', '41244'], f).toContain(m[1]);
      for (const m of text.matchAll(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/g)) expect(m[0].slice(0, 10), f).toBe('2026-10-06');
      expect(text.endsWith('\n') && !text.includes('\r'), f).toBe(true);
    }
  });

  it('the command exits 1 naming a changed file, and 2 on a bad --base-port', () => {
    const copy = mkdtempSync(join(tmpdir(), 'kit-out-'));
    try {
      cpSync(DEFAULT_OUT, copy, { recursive: true });
      const file = join(copy, '08-rejected.http');
      writeFileSync(file, readFileSync(file, 'utf8').replace('TASK_STATE_REJECTED', 'TASK_STATE_COMPLETED'));
      const run = kitCli('--check', '--base-port', '0', '--out', copy);
      expect([run.status, run.stderr]).toEqual([1, expect.stringContaining('08-rejected.http: differs from line')]);
      expect(kitCli('--check', '--base-port', 'x').status).toBe(2);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('compareDirs names files that differ (with the first differing line), are missing or are extra', () => {
    const a = mkdtempSync(join(tmpdir(), 'kit-a-'));
    const b = mkdtempSync(join(tmpdir(), 'kit-b-'));
    try {
      writeOut(a, { 'same.txt': 'x\n', 'changed.http': 'one\ntwo\n', 'gone.txt': 'g\n' });
      writeOut(b, { 'same.txt': 'x\n', 'changed.http': 'one\nTWO\n', 'new.txt': 'n\n' });
      expect(compareDirs(a, b)).toEqual([
        'gone.txt: not written by this capture',
        `new.txt: new, not in ${a}`,
        'changed.http: differs from line 2:\n  - two\n  + TWO',
      ]);
      writeFileSync(join(b, 'changed.http'), 'one\ntwo\n');
      rmSync(join(b, 'new.txt'));
      writeFileSync(join(b, 'gone.txt'), 'g\n');
      expect(compareDirs(a, b)).toEqual([]);
    } finally {
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    }
  });
});

describe('seeded ids and the kit clock', () => {
  it('ids are version-4 UUIDs, the same for the same seed and different per seed', () => {
    const [a, b, c] = [seededIds('test-runner'), seededIds('test-runner'), seededIds('deployer')];
    const first = a();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b()).toBe(first);
    expect(c()).not.toBe(first);
    expect(a()).not.toBe(first);
  });

  it('the clock starts at 2026-10-06T09:00:00Z and moves 250 ms per reading', () => {
    const clock = kitClock();
    expect([clock(), clock(), clock()].map((d) => d.toISOString())).toEqual([CLOCK_START, '2026-10-06T09:00:00.250Z', '2026-10-06T09:00:00.500Z']);
  });
});

describe('the signed card (§8.4)', () => {
  const key = demoSigningKey();
  const jku = 'http://127.0.0.1:41243/.well-known/jwks.json';
  const signed = signCard(deployerCard as AgentCard, key, jku);

  it('RFC 8785: sorted members, no whitespace, ES number and string forms', () => {
    expect(jcs({ b: [1e21, 0.1, -0, 1.5e-7], a: '\u20ac\n"', c: { z: true, y: null } })).toBe(
      '{"a":"€\\n\\"","b":[1e+21,0.1,0,1.5e-7],"c":{"y":null,"z":true}}',
    );
  });

  it('EdDSA signatures are deterministic, and the card verifies against the JWKS', () => {
    expect(signCard(deployerCard as AgentCard, demoSigningKey(), jku).steps.signature).toBe(signed.steps.signature);
    expect(JSON.parse(Buffer.from(signed.steps.protected, 'base64url').toString('utf8'))).toEqual({ alg: 'EdDSA', typ: 'JOSE', kid: key.kid, jku });
    expect(canonicalCard(signed.card)).toBe(canonicalCard(deployerCard as AgentCard));
    expect(verifyCard(signed.card, jwksOf(key)).ok).toBe(true);
    expect(JSON.stringify(jwksOf(key))).not.toContain('"d"');
  });

  it.each([
    ['a changed skill', (c: AgentCard) => (c.skills[0]!.description = 'Deploys anything anywhere.')],
    ['a changed URL', (c: AgentCard) => (c.supportedInterfaces[0]!.url = 'http://attacker.example/jsonrpc')],
    ['an added field', (c: AgentCard) => (c.documentationUrl = 'https://attacker.example')],
    ['another key', (c: AgentCard) => (c.signatures = signCard(c, demoSigningKey('someone else'), jku).card.signatures)],
  ])('verification rejects %s', (_, change) => {
    const tampered = structuredClone(signed.card);
    change(tampered);
    expect(verifyCard(tampered, jwksOf(key)).ok).toBe(false);
  });

  it('a card without signatures is not valid', () => {
    expect(verifyCard(deployerCard as AgentCard, jwksOf(key))).toEqual({ ok: false, lines: ['the card has no signatures'], errors: [] });
  });
});

describe('transcript pieces', () => {
  it('SSE frames are the data of complete events; an unfinished last event is left out', () => {
    expect(sseFrames('data: {"a":1}\n\ndata: {"b":\ndata: 2}\n\n: comment\n\ndata: {"cut"')).toEqual(['{"a":1}', '{"b":\n2}']);
  });

  it('frames are described by kind and state; bodies pretty-printed when JSON, kept as sent when not', () => {
    expect(describeFrame('{"id":1,"jsonrpc":"2.0","result":{"statusUpdate":{"status":{"state":"TASK_STATE_WORKING"}}}}')).toBe(
      'statusUpdate TASK_STATE_WORKING',
    );
    expect(describeFrame('{"artifactUpdate":{"append":true,"lastChunk":true,"artifact":{"name":"log"}}}')).toBe(
      'artifactUpdate log (append, lastChunk)',
    );
    expect(pretty('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(pretty('{"cut": ')).toBe('{"cut": ');
  });
});

describe('wiregen serve deployer --http 0', () => {
  it('serves the deployer as the kit does: bearer authentication in front of A2A, the approval route beside it', async () => {
    const { startAgent } = await import('../helpers/a2a-replay.ts');
    const { DEPLOY_TOKEN } = await import('../../samples/deployer.ts');
    const agent = await startAgent([process.execPath, 'bin/wiregen.mjs', 'serve', 'deployer', '--http', '0', '--exit-on-stdin-close']);
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} });
      const headers = { 'content-type': 'application/json', 'a2a-version': '1.0' };
      const refused = await fetch(`${agent.url}/jsonrpc`, { method: 'POST', headers, body });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="deployer"');
      const wrong = await fetch(`${agent.url}/rest/tasks`, { headers: { ...headers, authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
      const ok = await fetch(`${agent.url}/jsonrpc`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${DEPLOY_TOKEN}` }, body });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { result: unknown }).result).toEqual({ tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 });
      const approve = await fetch(`${agent.url}/approve/no-such-task`, { method: 'POST' });
      expect(approve.status).toBe(404);
      expect(await approve.json()).toEqual({ error: 'no deploy waits for approval with task id no-such-task' });
    } finally {
      expect((await agent.process.close()).code).toBe(0);
    }
  });
});
