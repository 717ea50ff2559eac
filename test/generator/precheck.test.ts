/**
 * The accept-path check in front of the all-errors set's calls (generator/emit/validators/precheck.ts) on a small
 * document: which calls get it (a property's definition, an array's items) and which do not (a union's
 * branches, which share their data), and that the all-errors report is ajv's own, error for error, on valid
 * values and on values wrong in one place or several. The pins' real data: test/generated/accept-path.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ACCEPT_PATH_OPTIONS, acceptPathClass } from '../../generator/emit/validators/accept-path.ts';
import { standaloneEsm } from '../../generator/emit/validators/index.ts';
import { createAjv } from '../../generator/emit/validators/index.ts';
import type { JsonObject } from '../../generator/load/schema.ts';

const ID = 'urn:test:precheck';
const DOC: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: ID,
  $defs: {
    Meta: { type: 'object', properties: { trace: { type: 'string' } } },
    Text: { type: 'object', required: ['type', 'text'], properties: { type: { const: 'text' }, text: { type: 'string' } } },
    Image: { type: 'object', required: ['type', 'data'], properties: { type: { const: 'image' }, data: { type: 'string' } } },
    Message: {
      type: 'object',
      required: ['role', 'content'],
      properties: {
        role: { enum: ['user', 'assistant'] },
        _meta: { $ref: '#/$defs/Meta' },
        content: { anyOf: [{ $ref: '#/$defs/Text' }, { $ref: '#/$defs/Image' }] },
        history: { type: 'array', items: { $ref: '#/$defs/Text' } },
      },
    },
  },
};
const REFS = { Meta: `${ID}#/$defs/Meta`, Text: `${ID}#/$defs/Text`, Image: `${ID}#/$defs/Image`, Message: `${ID}#/$defs/Message` };

const text = { type: 'text', text: 'hi' };
const VALUES: unknown[] = [
  { role: 'user', content: text, _meta: { trace: 't' }, history: [text, text] },
  { content: text },
  { role: 'user', content: { type: 'image', data: 1 } },
  { role: 'user', content: { type: 'text' }, _meta: { trace: 2 } },
  { role: 'bot', content: text, history: [text, { type: 'text', text: 3 }, 4] },
  { role: 'user', content: [], _meta: [] },
  'not an object',
];

type Validate = ((d: unknown) => boolean) & { errors?: unknown };
const dataUrl = (js: string) => `data:text/javascript;base64,${Buffer.from(js).toString('base64')}`;

function modules(): { fast: string; allErrors: string } {
  const fastAjv = createAjv({ draft: '2020-12' }, true, ACCEPT_PATH_OPTIONS, acceptPathClass(DOC, '2020-12'));
  fastAjv.addSchema(DOC);
  const fast = standaloneEsm(fastAjv, REFS, 'fast', { verdictOnly: true });
  const ajv = createAjv({ draft: '2020-12' }, true);
  ajv.addSchema(DOC);
  const allErrors = standaloneEsm(ajv, REFS, 'all', { precheck: 'fastSet' });
  return { fast, allErrors };
}

describe('precheckEdits', () => {
  const { fast, allErrors } = modules();

  it("asks the accept path before a property's definition and an array's items, not before a union's branches", () => {
    expect(allErrors).toMatch(/fastSet\.Meta\(data\._meta\) \|\|/);
    expect(allErrors).toMatch(/fastSet\.Text\(data\d+\[i\d+\]\) \|\|/);
    expect(allErrors).not.toMatch(/fastSet\.Image\(/);
    expect(allErrors.match(/fastSet\./g)).toHaveLength(2);
  });

  it("leaves ajv's all-errors report, error for error", async () => {
    const mod = (await import(dataUrl(`import * as fastSet from ${JSON.stringify(dataUrl(fast))};\n${allErrors}`))) as Record<string, Validate>;
    const reference = createAjv({ draft: '2020-12' }, false);
    reference.addSchema(DOC);
    for (const [name, uri] of Object.entries(REFS)) {
      const want = reference.getSchema(uri)!;
      for (const value of VALUES) {
        const valid = mod[name]!(value);
        expect(valid, `${name} ${JSON.stringify(value)}`).toBe(want(value));
        expect(mod[name]!.errors ?? null, `${name} ${JSON.stringify(value)}`).toEqual(want.errors ?? null);
      }
    }
    // The values above do reach the all-errors functions with errors in several places.
    expect((reference.getSchema(REFS.Message)!(VALUES[4]), reference.getSchema(REFS.Message)!.errors?.length)).toBeGreaterThan(2);
  });
});
