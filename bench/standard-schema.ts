/**
 * @module bench/standard-schema — `npm run bench:standard-schema` (or `npx tsx bench/standard-schema.ts`): what
 * validating a code-first tool's arguments costs when its schema is a Standard Schema
 * (runtime/mcp/catalog/standard/), in this process, on this machine:
 *
 * 1. ns per call of one argument object, valid and invalid: each library's own `~standard.validate` (Zod
 *    4.6, Valibot 1.5, ArkType 2.2), our parser around Zod's (validate plus the problems' text,
 *    standard/validate.ts), and ajv (2020-12, allErrors, as code-first-compile.ts compiles) of the JSON
 *    Schema derived from the same Zod schema, alone and with its error text (errors.ts describeSchemaErrors);
 * 2. µs per tools/call in process, one after the other, valid and invalid: our code-first server with that
 *    Zod tool against the official SDK v2's (`@modelcontextprotocol/server` 2.4.0 McpServer.registerTool
 *    with the same Zod schema, over its InMemoryTransport), both in the handshake era (2025-11-25).
 *
 * Medians and ranges of `--rounds` rounds (default 7), the subjects interleaved in each round, after a warm-up. Not part of `npm test`; numbers in BENCHMARKS.md.
 */
import { parseArgs } from 'node:util';
import { InMemoryTransport, McpServer as SdkServer } from '@modelcontextprotocol/server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import type { JsonObject } from '../runtime/jsonrpc/message.ts';
import { mcpServer } from '../runtime/mcp/catalog/code-first.ts';
import { standardParser } from '../runtime/mcp/catalog/standard/validate.ts';
import { describeSchemaErrors, type SchemaError } from '../runtime/mcp/server/errors.ts';
import { createLinkedPair } from '../runtime/transports/transport.ts';

const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '7' } } });
const ROUNDS = Number(flags.rounds);

// One argument object, written with each library: a title (non-empty), a count (integer), optional tags.
const zodNote = z.object({ title: z.string().min(1), count: z.number().int(), tags: z.array(z.string()).optional() });
const valibotNote = v.object({
  title: v.pipe(v.string(), v.minLength(1)),
  count: v.pipe(v.number(), v.integer()),
  tags: v.optional(v.array(v.string())),
});
const arkNote = type({ title: 'string > 0', count: 'number.integer', 'tags?': 'string[]' });
const VALID = { title: 'Plan', count: 3, tags: ['a', 'b'] };
const INVALID = { title: '', count: 'x', tags: ['a', 3] };

const derived = zodNote['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
const { $schema: _dialect, ...schema } = derived;
const ajvCheck = new Ajv2020({ allErrors: true, strict: false, inlineRefs: true }).compile(schema);
const zodParser = standardParser(zodNote);

let sink = 0;
const SUBJECTS: Record<string, (value: unknown) => void> = {
  'Zod ~standard.validate': (x) => {
    sink += zodNote['~standard'].validate(x) instanceof Promise ? 1 : 0;
  },
  'Valibot ~standard.validate': (x) => {
    sink += valibotNote['~standard'].validate(x) instanceof Promise ? 1 : 0;
  },
  'ArkType ~standard.validate': (x) => {
    sink += arkNote['~standard'].validate(x) instanceof Promise ? 1 : 0;
  },
  'ours: Zod parser (validate + problem text)': (x) => {
    const parsed = zodParser(x) as { ok: boolean; problems?: string };
    sink += parsed.ok ? 1 : (parsed.problems?.length ?? 0);
  },
  'ajv of the derived JSON Schema': (x) => {
    sink += ajvCheck(x) ? 1 : 0;
  },
  'ajv of the derived JSON Schema + error text': (x) => {
    sink += ajvCheck(x) ? 1 : describeSchemaErrors(ajvCheck.errors as SchemaError[]).length;
  },
};

/** ns per call of `fn(value)`: calls in batches until 50 ms have passed. */
function nsPerCall(fn: (value: unknown) => void, value: unknown): number {
  let calls = 0;
  const start = process.hrtime.bigint();
  const until = start + 50_000_000n;
  let now = start;
  while (now < until) {
    for (let i = 0; i < 1000; i++) fn(value);
    calls += 1000;
    now = process.hrtime.bigint();
  }
  return Number(now - start) / calls;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** The median and the range over the rounds: `230 (210–260)`. */
const cell = (xs: readonly number[], digits: number) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

function validation(): void {
  // Same answers first: every subject accepts VALID and rejects INVALID.
  for (const [name, check] of [
    ['Zod', (x: unknown) => !zodNote.safeParse(x).error],
    ['Valibot', (x: unknown) => v.safeParse(valibotNote, x).success],
    ['ArkType', (x: unknown) => !(arkNote(x) instanceof type.errors)],
    ['ajv', (x: unknown) => ajvCheck(x)],
  ] as const)
    if (!check(VALID) || check(INVALID)) throw new Error(`${name} does not accept the valid value and reject the invalid one`);
  for (const fn of Object.values(SUBJECTS)) for (let i = 0; i < 5; i++) (nsPerCall(fn, VALID), nsPerCall(fn, INVALID));
  const results = new Map<string, { valid: number[]; invalid: number[] }>();
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, fn] of Object.entries(SUBJECTS)) {
      const row = results.get(name) ?? { valid: [], invalid: [] };
      row.valid.push(nsPerCall(fn, VALID));
      row.invalid.push(nsPerCall(fn, INVALID));
      results.set(name, row);
    }
  console.log(`\nValidation of one argument object, ns/call, median (min–max) of ${ROUNDS} rounds\n`);
  console.log('| subject | valid | invalid |\n|---|---:|---:|');
  for (const [name, { valid, invalid }] of results) console.log(`| ${name} | ${cell(valid, 0)} | ${cell(invalid, 0)} |`);
}

const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } };

/** A client of one in-process server: sends a request and resolves with its response. */
type Caller = (method: string, params: JsonObject) => Promise<JsonObject>;

function correlate(send: (message: JsonObject) => void): { call: Caller; receive: (message: JsonObject) => void } {
  let next = 1;
  const waiting = new Map<unknown, (m: JsonObject) => void>();
  return {
    call: (method, params) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        send({ jsonrpc: '2.0', id, method, params });
      }),
    receive: (message) => {
      const resolve = waiting.get(message['id']);
      if (resolve && !('method' in message)) (waiting.delete(message['id']), resolve(message));
    },
  };
}

async function ours(): Promise<Caller> {
  const server = await mcpServer({ name: 'bench', version: '1' })
    .tool('note', { input: zodNote }, ({ title, count }) => `${title} ${count}`)
    .build({ log: () => {} });
  const [client, side] = createLinkedPair();
  const { call, receive } = correlate((m) => client.send(JSON.stringify(m)));
  client.start({ message: (text) => receive(JSON.parse(text) as JsonObject), close() {} });
  server.connect(side);
  await call('initialize', INIT);
  client.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return call;
}

async function sdk(): Promise<Caller> {
  const server = new SdkServer({ name: 'bench', version: '1' });
  server.registerTool('note', { inputSchema: zodNote }, async ({ title, count }) => ({ content: [{ type: 'text', text: `${title} ${count}` }] }));
  const [client, side] = InMemoryTransport.createLinkedPair();
  const { call, receive } = correlate((m) => void client.send(m as never));
  client.onmessage = (m) => receive(m as JsonObject);
  await client.start();
  await server.connect(side);
  await call('initialize', INIT);
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return call;
}

/** µs per tools/call, one after the other, for 200 ms. */
async function usPerCall(call: Caller, args: JsonObject): Promise<number> {
  let calls = 0;
  const start = process.hrtime.bigint();
  const until = start + 200_000_000n;
  let now = start;
  while (now < until) {
    for (let i = 0; i < 50; i++) await call('tools/call', { name: 'note', arguments: args });
    calls += 50;
    now = process.hrtime.bigint();
  }
  return Number(now - start) / calls / 1000;
}

async function calls(): Promise<void> {
  const servers = { 'ours (code-first, Zod input)': await ours(), 'SDK v2 2.4.0 (registerTool, Zod input)': await sdk() };
  for (const [name, call] of Object.entries(servers)) {
    const good = (await call('tools/call', { name: 'note', arguments: VALID }))['result'] as JsonObject;
    const bad = (await call('tools/call', { name: 'note', arguments: INVALID }))['result'] as JsonObject;
    if (good['isError'] || !bad['isError']) throw new Error(`${name}: unexpected answers ${JSON.stringify([good, bad])}`);
    for (let i = 0; i < 3; i++) (await usPerCall(call, VALID), await usPerCall(call, INVALID));
  }
  const results = new Map<string, { valid: number[]; invalid: number[] }>();
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, call] of Object.entries(servers)) {
      const row = results.get(name) ?? { valid: [], invalid: [] };
      row.valid.push(await usPerCall(call, VALID));
      row.invalid.push(await usPerCall(call, INVALID));
      results.set(name, row);
    }
  console.log(`\ntools/call in process, handshake era, one at a time, µs/call, median (min–max) of ${ROUNDS} rounds\n`);
  console.log('| server | valid | invalid |\n|---|---:|---:|');
  for (const [name, { valid, invalid }] of results) console.log(`| ${name} | ${cell(valid, 1)} | ${cell(invalid, 1)} |`);
}

console.log(
  `node ${process.version}, zod 4.6.7, valibot 1.5.0, arktype 2.2.10, ajv ${(await import('ajv/package.json', { with: { type: 'json' } })).default.version}`,
);
validation();
await calls();
if (sink === 0.5) console.log(sink);
process.exit(0);
