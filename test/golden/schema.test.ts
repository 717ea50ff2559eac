/**
 * wiregen/golden/corpus.schema.json: the repository's corpora (the Golden Server's, the reference Golden
 * corpus, server-everything's, the counter's of ours) are valid, manifest and every case file; broken ones are not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { loadCorpus, requestPath, responsePath } from '../../generator/golden/corpus.ts';
import { ROOT } from '../helpers/project.ts';

const schema = JSON.parse(readFileSync(join(ROOT, 'generator/golden/corpus.schema.json'), 'utf8')) as { $id: string };
const ajv = new Ajv2020.default({ allErrors: true, strict: false });
ajv.addSchema(schema);
const validate = (ref: string, value: unknown) => {
  const ok = ajv.validate(`${schema.$id}${ref}`, value);
  return ok ? [] : (ajv.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
};
const json = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

const CORPORA = ['test/golden', 'test/golden/reference', 'test/golden/everything', 'test/golden/counter/corpus'];

describe.each(CORPORA)('%s', (dir) => {
  const abs = join(ROOT, dir);
  it('its manifest and every request and response file are valid', () => {
    expect(validate('', json(join(abs, 'manifest.json')))).toEqual([]);
    const corpus = loadCorpus(abs, { cwd: ROOT });
    expect(corpus.cases.length).toBeGreaterThan(0);
    for (const c of corpus.cases) {
      expect(validate('#/$defs/request', json(requestPath(abs, c.name))), c.name).toEqual([]);
      expect(validate('#/$defs/response', json(responsePath(abs, c.name))), c.name).toEqual([]);
    }
  });
});

describe('broken corpora are rejected', () => {
  it.each([
    ['no cases', {}],
    ['a case without a name', { cases: [{ handlers: 'base' }] }],
    ['an unknown era', { cases: [{ name: 'x/ping', era: 'future' }] }],
    ['no era and a name that names none', { cases: [{ name: 'ping' }] }],
    ['notifications as a string', { cases: [{ name: 'legacy/ping', notifications: 'yes' }] }],
    ['a preamble without $REVISION', { preamble: { initialize: '{}', initialized: '{}' }, cases: [] }],
  ])('manifest: %s', (_, manifest) => {
    expect(validate('', manifest)).not.toEqual([]);
  });

  it('a request without a method, and a response with both result and error', () => {
    expect(validate('#/$defs/request', { jsonrpc: '2.0', id: 1 })).not.toEqual([]);
    expect(validate('#/$defs/response', { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } })).not.toEqual([]);
  });
});
