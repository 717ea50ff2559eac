/**
 * The conformance client's sampling and header-annotation rules (schema-sample.ts), table-driven: arguments
 * sampled from input schemas, form answers with defaults (SEP-1034), and which `x-mcp-header` annotations a
 * client must refuse (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports, the runner's http-invalid-tool-headers tools).
 */
import { describe, expect, it } from 'vitest';
import { invalidHeaderAnnotations, sampleArguments, sampleElicitation } from './schema-sample.ts';

const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({ type: 'object', properties, required });

describe('sampleArguments', () => {
  it.each([
    ['numbers', obj({ a: { type: 'number' }, b: { type: 'integer', minimum: 5 } }), { a: 1, b: 5 }],
    ['enum, const, default', obj({ e: { enum: ['x', 'y'] }, c: { const: 7 }, d: { type: 'string', default: 'dflt' } }), { e: 'x', c: 7, d: 'dflt' }],
    [
      'only required, plus header-mirrored',
      obj({ r: { type: 'string' }, h: { type: 'boolean', 'x-mcp-header': 'H' }, o: { type: 'string' } }, ['r']),
      { r: 'sample', h: true },
    ],
    [
      'same-document $ref followed',
      { type: 'object', $defs: { id: { type: 'string', format: 'uri' } }, properties: { id: { $ref: '#/$defs/id' } }, required: ['id'] },
      { id: 'https://example.com/sample' },
    ],
    ['network $ref never fetched', obj({ p: { $ref: 'http://127.0.0.1:1/canary.json' } }), { p: {} }],
    [
      'nested object and array',
      obj({ o: obj({ n: { type: ['null', 'integer'] } }), l: { type: 'array', minItems: 1, items: { type: 'boolean' } } }),
      { o: { n: 1 }, l: [true] },
    ],
  ])('%s', (_name, schema, want) => {
    expect(sampleArguments(schema)).toEqual(want);
  });
});

describe('sampleElicitation', () => {
  it('answers every field, with its default when it has one', () => {
    const schema = obj({ name: { type: 'string', default: 'John Doe' }, age: { type: 'integer', default: 30 }, ok: { type: 'boolean' } }, []);
    expect(sampleElicitation(schema)).toEqual({ name: 'John Doe', age: 30, ok: true });
  });
});

describe('invalidHeaderAnnotations', () => {
  const tool = (properties: Record<string, unknown>) => obj(properties);
  it.each([
    [
      'valid string, integer, boolean',
      tool({
        a: { type: 'string', 'x-mcp-header': 'Region' },
        b: { type: 'integer', 'x-mcp-header': 'Priority' },
        c: { type: 'boolean', 'x-mcp-header': 'X-Flag.1' },
      }),
      0,
    ],
    ['no annotation', tool({ a: { type: 'number' } }), 0],
    ['empty name', tool({ a: { type: 'string', 'x-mcp-header': '' } }), 1],
    ['object type', tool({ a: { type: 'object', 'x-mcp-header': 'Data' } }), 1],
    ['number type', tool({ a: { type: 'number', 'x-mcp-header': 'Score' } }), 1],
    ['null type', tool({ a: { type: 'null', 'x-mcp-header': 'Nil' } }), 1],
    ['duplicate, other case', tool({ a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }), 1],
    ['space', tool({ a: { type: 'string', 'x-mcp-header': 'My Region' } }), 1],
    ['colon', tool({ a: { type: 'string', 'x-mcp-header': 'Region:Primary' } }), 1],
    ['non-ASCII', tool({ a: { type: 'string', 'x-mcp-header': 'Région' } }), 1],
    ['control character', tool({ a: { type: 'string', 'x-mcp-header': 'Region\t1' } }), 1],
    ['nested below the root', tool({ a: obj({ b: { type: 'string', 'x-mcp-header': 'Deep' } }) }), 1],
  ])('%s', (_name, schema, reasons) => {
    expect(invalidHeaderAnnotations(schema)).toHaveLength(reasons);
  });
});
