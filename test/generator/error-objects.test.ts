/**
 * The all-errors set's error objects made by one function (generator/emit/validators/error-objects.ts): the edit on
 * a small module (a value's own edit kept, an object of another shape left alone), and the error objects
 * equal to ajv's, property for property and in ajv's order, on a schema compiled by ajv here. The pins'
 * reports against ajv's are test/generated/accept-path.test.ts.
 */
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { describe, expect, it } from 'vitest';
import { applyEdits, parseModule, renameIdentifiers } from '../../generator/emit/js-edit.ts';
import { ERROR_DECLARATION, errorObjectEdits } from '../../generator/emit/validators/error-objects.ts';

/** ajv's standalone code is CommonJS: its run-time helpers come through require(). */
const requireAjv = createRequire(import.meta.url);

describe('errorObjectEdits', () => {
  it('makes each error object of ajv’s shape a call, keeping an edit inside a value', () => {
    const text = [
      'const err0 = {instancePath:instancePath+"/a",schemaPath:"#/properties/a/type",keyword:"type",params:{type: schema3.type},message:"must be string"};',
      'const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "a"},message:"must have required property \'"+"a"+"\'"};',
      'const err2 = {instancePath,schemaPath:"#/propertyNames",keyword:"propertyNames",params:{propertyName: key0},message:"property name must be valid"};',
      'const err3 = {propertyName: key0,instancePath,schemaPath:"#/propertyNames/pattern",keyword:"pattern",params:{pattern: "^a"},message:"must match"};',
    ].join('\n');
    const source = parseModule(text, 'm.js', 'js');
    const edits = [...errorObjectEdits(source), ...renameIdentifiers(source, new Map([['schema3', 'schema_Leaf']]))];
    expect(applyEdits(text, edits).split('\n')).toEqual([
      'const err0 = ajvError(instancePath+"/a","#/properties/a/type","type",{type: schema_Leaf.type},"must be string");',
      'const err1 = ajvError(instancePath,"#/required","required",{missingProperty: "a"},"must have required property \'"+"a"+"\'");',
      'const err2 = ajvError(instancePath,"#/propertyNames","propertyNames",{propertyName: key0},"property name must be valid");',
      // ajv's `propertyNames` errors carry a sixth property: left as written.
      'const err3 = {propertyName: key0,instancePath,schemaPath:"#/propertyNames/pattern",keyword:"pattern",params:{pattern: "^a"},message:"must match"};',
    ]);
  });

  it('leaves ajv’s errors as ajv makes them, property for property and in order', () => {
    const schema = {
      $id: 'https://example.invalid/s',
      type: 'object',
      required: ['name', 'tags'],
      properties: {
        name: { type: 'string', minLength: 2 },
        tags: { type: 'array', items: { enum: ['a', 'b'] } },
        size: { anyOf: [{ type: 'integer', minimum: 0 }, { const: 'auto' }] },
      },
      additionalProperties: false,
    };
    const ajv = new Ajv2020.default({ allErrors: true, code: { source: true, esm: false }, strict: true });
    ajv.addSchema(schema);
    const code = standaloneCode.default(ajv, { v: schema.$id });
    const edited = applyEdits(code, errorObjectEdits(parseModule(code, 'm.js', 'js')));
    // Not an error object left written out (`{instancePath="", …}` is the function's parameter).
    expect(edited).not.toMatch(/\{instancePath(:|,schemaPath)/);
    expect(edited).toContain('ajvError(');
    const load = (js: string) => {
      const module = { exports: {} as Record<string, (d: unknown) => boolean> };
      new Function('module', 'exports', 'require', js)(module, module.exports, requireAjv);
      return module.exports['v']!;
    };
    const ajvOwn = load(code);
    const ours = load(`${ERROR_DECLARATION.text}\n${edited}`);
    const invalid = [{}, { name: 1, tags: ['c', 'a', 'd'], size: -1, extra: true }, { name: 'x', tags: 'a', size: 'big' }];
    for (const data of invalid) {
      expect(ours(data)).toBe(false);
      expect(ajvOwn(data)).toBe(false);
      // JSON text, so that the order of each object's properties is compared too.
      expect(JSON.stringify((ours as unknown as { errors: unknown }).errors)).toBe(JSON.stringify((ajvOwn as unknown as { errors: unknown }).errors));
    }
    expect(ours({ name: 'xy', tags: ['a'], size: 'auto' })).toBe(true);
  });
});
