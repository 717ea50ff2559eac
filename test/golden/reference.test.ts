/**
 * The reference Golden corpus (test/golden/reference/: the reference server's own 24 cases, BSD-3-Clause,
 * PROVENANCE.md) replayed against `wiregen serve golden` with `wiregen golden check`, over stdio (exact: nothing
 * but the answers, exit 0) and Streamable HTTP: 24/24. The reference's own choices are named sample
 * behaviours (test/golden/README.md): the test also proves that each one matters (the schema-correct defaults
 * fail exactly the reference cases that show it) and that the project corpus marks every case's provenance.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { differences } from '../../generator/golden/compare.ts';
import { expectedResponse, loadCorpus, requestLine } from '../../generator/golden/corpus.ts';
import { catalogServerOptions, type CatalogSpec } from '../../runtime/mcp/index.ts';
import { handlerSets } from '../../samples/golden.ts';
import golden from '../../samples/golden.ts';
import { GOLDEN_DIR, loadManifest } from '../helpers/golden.ts';
import { mcpPair } from '../helpers/mcp-pair.ts';
import { ROOT, runCli } from '../helpers/project.ts';

const REFERENCE = join(GOLDEN_DIR, 'reference');
const reference = loadCorpus(REFERENCE, { cwd: ROOT });
const SERVE = [process.execPath, 'bin/wiregen.mjs', 'serve', 'golden'];

describe('the reference Golden corpus against serve golden (wiregen golden check)', () => {
  it('holds the 24 cases of the reference, with its notice', () => {
    expect(reference.cases).toHaveLength(24);
    expect(readFileSync(join(REFERENCE, 'PROVENANCE.md'), 'utf8')).toContain('BSD-3-Clause');
  });

  it('stdio, exact: 24/24', async () => {
    const { code, out, err } = await runCli(
      ['golden', 'check', 'test/golden/reference', '--exact', '--handlers', 'extended=--handlers extended', '--', ...SERVE, '--stdio'],
      ROOT,
    );
    expect({ code, err, out }).toEqual({ code: 0, err: [], out: ['24 cases: 24 passed, 0 failed'] });
  }, 300_000);

  it('Streamable HTTP: 24/24', async () => {
    const { code, out, err } = await runCli(
      [
        'golden',
        'check',
        'test/golden/reference',
        '--url',
        'http://127.0.0.1:$PORT/mcp',
        '--handlers',
        'extended=--handlers extended',
        '--',
        ...SERVE,
        '--http',
        '$PORT',
        '--exit-on-stdin-close',
      ],
      ROOT,
    );
    expect({ code, err, out }).toEqual({ code: 0, err: [], out: ['24 cases: 24 passed, 0 failed'] });
  }, 300_000);
});

/** The reference's choices, as the golden specs set them (schemas/samples/golden*.yaml). */
const CHOICES = ['instructionsIn', 'isErrorFalse', 'completionCounts', 'methodNotFound', 'supportedVersions'] as const;

describe('the reference choices are named sample behaviours, with schema-correct defaults', () => {
  /** Every reference case played in process against golden with the choices removed: the differences by case. */
  async function withDefaults(): Promise<Record<string, string[]>> {
    const found: Record<string, string[]> = {};
    for (const c of reference.cases) {
      const def = c.handlers === 'extended' ? handlerSets.extended : golden;
      const spec: Record<string, unknown> = { ...def.spec };
      for (const choice of CHOICES) delete spec[choice];
      const pair = mcpPair(catalogServerOptions({ ...def, spec: spec as unknown as CatalogSpec })); // the spec minus the five choices
      const request = JSON.parse(requestLine(REFERENCE, c)) as { id: string | number; method: string; params?: Record<string, unknown> };
      /** The answer to `id`, waited for long enough for a loaded machine (the first use of a revision loads it). */
      const answer = (id: unknown) => pair.waitFor((f) => f['id'] === id && !('method' in f), 30_000);
      if (c.handshake !== null) {
        pair.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: c.handshake, capabilities: {}, clientInfo: { name: 'golden-client', version: '1.0' } } });
        await answer('init');
        pair.notify('notifications/initialized');
      }
      pair.send(request);
      const response = await answer(request.id);
      await pair.close();
      const diff = differences(expectedResponse(REFERENCE, c), response).map((d) => `${d.path} ${d.reason}`);
      if (diff.length) found[c.name] = diff;
    }
    return found;
  }

  it('the golden specs set each choice; without them, exactly the cases that show one differ, as the schema says', async () => {
    for (const file of ['golden.yaml', 'golden-extended.yaml']) {
      const text = readFileSync(join(ROOT, 'schemas', 'samples', file), 'utf8');
      for (const choice of CHOICES) expect(text, `${file} sets ${choice}`).toMatch(new RegExp(`^${choice}: `, 'm'));
    }
    expect(await withDefaults()).toEqual({
      'legacy/completion-complete': ['/result/completion/total unexpected member', '/result/completion/hasMore unexpected member'],
      'legacy/initialize': ['/result/serverInfo/instructions missing member', '/result/instructions unexpected member'],
      'legacy/tools-call-echo': ['/result/isError unexpected member'],
      'modern/initialize': ['/error/message value differs', '/error/data unexpected member'],
      'modern/server-discover': ['/result/supportedVersions length 5 ≠ 1: items missing at the end'],
      'modern/tools-call-echo': ['/result/isError unexpected member'],
      'modern/tools-call-structured': ['/result/isError unexpected member'],
      'modern/unsupported-version': ['/error/data/supported length 5 ≠ 1: items missing at the end'],
    });
  }, 120_000);

  it('test/golden/README.md lists each choice', () => {
    const readme = readFileSync(join(GOLDEN_DIR, 'README.md'), 'utf8');
    for (const choice of CHOICES) expect(readme).toContain(`\`${choice}\``);
  });
});

describe('provenance of the project corpus (test/golden/manifest.json)', () => {
  const manifest = loadManifest();
  const project = loadCorpus(GOLDEN_DIR, { cwd: ROOT });

  it('every case says reference or project; a reference case is the reference corpus’s request and response', () => {
    const names = new Set(reference.cases.map((c) => c.name));
    for (const c of manifest.cases) {
      expect(['reference', 'project'], c.name).toContain(c.provenance);
      expect(c.provenance === 'reference', c.name).toBe(names.has(c.name));
      if (c.provenance !== 'reference') continue;
      const ours = project.cases.find((x) => x.name === c.name)!;
      const theirs = reference.cases.find((x) => x.name === c.name)!;
      expect(JSON.parse(requestLine(GOLDEN_DIR, ours)), c.name).toEqual(JSON.parse(requestLine(REFERENCE, theirs)));
      expect(expectedResponse(GOLDEN_DIR, ours), c.name).toEqual(expectedResponse(REFERENCE, theirs));
    }
    expect(manifest.cases.filter((c) => c.provenance === 'reference')).toHaveLength(24);
  });
});
