/**
 * Type-level tests of Standard Schemas in the code-first builder (runtime/mcp/catalog/code-first.ts): a
 * tool's arguments are the schema's output type (StandardSchemaV1.InferOutput: after defaults and transforms),
 * its value the output schema's input type (InferInput: what the library turns into structuredContent), a
 * prompt's arguments the schema's output. Zod, Valibot and ArkType. Compiled by `tsc`, never run.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import { expectType, type Equal } from './equal.ts';

const Input = z.object({ title: z.string(), count: z.number().default(1), size: z.string().transform((s) => s.length) });
const Output = z.object({
  id: z.string(),
  at: z
    .string()
    .transform((s) => new Date(s))
    .optional(),
});

mcpServer({ name: 'w', version: '1' })
  .tool('zod', { input: Input, output: Output }, (args) => {
    expectType<Equal<typeof args, { title: string; count: number; size: number }>>(true);
    return { id: args.title, at: '2026-01-01' };
  })
  .tool('valibot', { input: v.object({ n: v.optional(v.number(), 3), s: v.pipe(v.string(), v.transform(Number)) }) }, (args) => {
    expectType<Equal<typeof args, { n: number; s: number }>>(true);
    return `${args.n + args.s}`;
  })
  .tool('arktype', { input: type({ name: 'string', 'age?': 'number.integer' }), output: type({ ok: 'boolean' }) }, (args) => {
    expectType<Equal<typeof args, { name: string; age?: number }>>(true);
    return { ok: true };
  })
  // A JSON Schema input beside a Standard Schema output.
  .tool('mixed', { input: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }, output: Output }, ({ a }) => ({
    id: a.toFixed(),
  }));

const server = mcpServer({ name: 'w', version: '1' });
// @ts-expect-error the value is the output schema's input: id is a string
server.tool('wrong_value', { output: Output }, () => ({ id: 1 }));
// @ts-expect-error the value is the output schema's input: at is a string before its transform, not a Date
server.tool('transformed', { output: Output }, () => ({ id: 'x', at: new Date() }));
// @ts-expect-error size is a number after the transform
server.tool('wrong_arg', { input: Input }, ({ size }) => size.toUpperCase());
// @ts-expect-error a Standard Schema tool without output returns text
server.tool('text', { input: Input }, () => ({ a: 1 }));

// Prompts: the arguments are the schema's output.
mcpServer({ name: 'w', version: '1' })
  .prompt('plan', { arguments: z.object({ city: z.string().describe('Where'), days: z.string().optional() }) }, (args) => {
    expectType<Equal<typeof args, { city: string; days?: string | undefined }>>(true);
    return `Plan ${args.city}`;
  })
  .prompt('v', { arguments: v.object({ id: v.string() }) }, ({ id }) => id)
  // @ts-expect-error no argument `town`
  .prompt('a', { arguments: type({ city: 'string' }) }, ({ town }) => town);
