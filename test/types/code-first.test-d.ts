/**
 * Type-level tests of the code-first builder (runtime/mcp/catalog/code-first.ts) and FromSchema (from-schema.ts):
 * compiled by `tsc` in `npm run typecheck`, never run. Each `@ts-expect-error` line must fail to compile.
 */
import { mcpServer, type DefinitionError } from '../../runtime/mcp/catalog/code-first.ts';
import type { PublicError } from '../../runtime/mcp/server/thrown.ts';
import type { FromSchema } from '../../runtime/mcp/catalog/from-schema.ts';
import { expectType, type Equal } from './equal.ts';

// FromSchema: the keywords it types; anything else is unknown.
const point = {
  type: 'object',
  properties: { x: { type: 'number' }, label: { type: ['string', 'null'] }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['x'],
  additionalProperties: false,
} as const;
expectType<Equal<FromSchema<typeof point>, { x: number; label?: string | null; tags?: string[] }>>(true);
expectType<Equal<FromSchema<{ type: 'integer' }>, number>>(true);
expectType<Equal<FromSchema<{ type: 'boolean' }>, boolean>>(true);
expectType<Equal<FromSchema<{ type: 'null' }>, null>>(true);
expectType<Equal<FromSchema<{ enum: readonly ['a', 'b'] }>, 'a' | 'b'>>(true);
expectType<Equal<FromSchema<{ const: 7 }>, 7>>(true);
expectType<Equal<FromSchema<{ type: 'array' }>, unknown[]>>(true);
expectType<Equal<FromSchema<{ anyOf: readonly [{ type: 'string' }] }>, unknown>>(true);
expectType<Equal<FromSchema<{ $ref: '#/$defs/x' }>, unknown>>(true);
// Open objects (no additionalProperties: false) keep an index signature of unknown.
expectType<Equal<FromSchema<{ type: 'object'; properties: { a: { type: 'string' } } }>, { a?: string; [key: string]: unknown }>>(true);
expectType<Equal<FromSchema<{ type: 'object' }>, { [key: string]: unknown }>>(true);

// Tools: arguments from `input` (without `as const`: the builder's const type parameters keep the literals),
// the value from `output`; text tools return text.
mcpServer({ name: 'w', version: '1' })
  .tool(
    'to_fahrenheit',
    {
      input: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
      output: { type: 'object', properties: { fahrenheit: { type: 'number' } }, required: ['fahrenheit'] },
    },
    (args) => {
      expectType<Equal<typeof args.celsius, number>>(true);
      return { fahrenheit: (args.celsius * 9) / 5 + 32 };
    },
  )
  .tool('greet', { input: { type: 'object', properties: { name: { type: 'string' } } } }, ({ name }) => `hi ${name ?? 'you'}`)
  .tool('no_args', {}, async () => 42);

// Wrong tools, one line each (an overloaded call's error may be reported anywhere in it).
const FAHRENHEIT = { output: { type: 'object', properties: { fahrenheit: { type: 'number' } }, required: ['fahrenheit'] } } as const;
const CELSIUS = { input: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] } } as const;
const server = mcpServer({ name: 'w', version: '1' });
// @ts-expect-error the value must match the output schema
server.tool('wrong_value', FAHRENHEIT, () => ({ fahrenheit: 'hot' }));
// @ts-expect-error the output schema requires fahrenheit
server.tool('missing_field', FAHRENHEIT, () => ({}));
// @ts-expect-error celsius is a number
server.tool('wrong_arg', CELSIUS, ({ celsius }) => celsius.toUpperCase());
server.tool('right', CELSIUS, ({ celsius }) => celsius.toFixed(1));
// @ts-expect-error a text tool returns text, not an object
mcpServer({ name: 'w', version: '1' }).tool('text', {}, () => ({ a: 1 }));
// @ts-expect-error MCP tool schemas are object schemas
mcpServer({ name: 'w', version: '1' }).tool('scalar', { input: { type: 'string' } }, () => 'x');

// The escape hatch: types given explicitly (the schemas still check at run time).
interface Weather {
  readonly city: string;
}
mcpServer({ name: 'w', version: '1' }).tool<Weather, { sunny: boolean }>(
  'sunny',
  { input: { type: 'object', properties: { city: { $ref: '#/$defs/city' } } } },
  (args) => ({ sunny: args.city === 'Nice' }),
);
// @ts-expect-error the explicit value type still holds (reported at the call)
mcpServer({ name: 'w', version: '1' }).tool<Weather, { sunny: boolean }>('sunny', {}, () => ({ sunny: 'yes' }));

// Resources: a template's reader gets its variables by name.
mcpServer({ name: 'w', version: '1' })
  .resource('w://cities', {}, (ctx) => ctx.method)
  .resource('w://city/{name}/day/{day}', { name: 'day' }, (vars) => {
    expectType<Equal<typeof vars, { name: string; day: string }>>(true);
    return { text: vars.name, mimeType: 'text/plain' };
  })
  // @ts-expect-error a template has no variable `town`
  .resource('w://town/{name}', {}, ({ town }) => town);

// Prompts: arguments by name, required ones present.
mcpServer({ name: 'w', version: '1' }).prompt('plan', { arguments: [{ name: 'city', required: true }, { name: 'days' }] }, (args) => {
  expectType<Equal<typeof args.city, string>>(true);
  expectType<Equal<typeof args.days, string | undefined>>(true);
  // @ts-expect-error no argument `weeks`
  return `${args.weeks}`;
});

// Errors: what a thrown error shows is an option of the builder, and a definition's problems are typed.
mcpServer({ name: 'w', version: '1', thrownErrors: 'mask', invalidArguments: 'error' });
// @ts-expect-error only show or mask
mcpServer({ name: 'w', version: '1', thrownErrors: 'hide' });
expectType<Equal<DefinitionError['problems'], readonly string[]>>(true);
expectType<Equal<InstanceType<typeof PublicError>['message'], string>>(true);
