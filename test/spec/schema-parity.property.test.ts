/**
 * Schema parity, a property (fast-check): for tool schemas generated from every keyword JSON Schema 2020-12
 * and draft-07 have (test/spec/schema-arbitrary.ts) and values drawn for each, a user's server accepts
 * exactly the values ajv accepts (a fresh Ajv2020, or Ajv for a draft-07 `$schema`, with ajv-formats, not
 * strict) — as a tool's arguments (inputSchema) and as its structured value (outputSchema) — whether it is
 * written as a spec (`wiregen generate --spec`, its module and the user's server module type-checked by tsc
 * under the strict settings `wiregen init` writes, then served) or in code (`mcpServer().tool(...)`); both
 * list every schema exactly as written; and every value ajv accepts has the generated TypeScript type of
 * that tool's arguments or value (a module of them is part of what tsc checks).
 *
 * Cheap by design: all the schemas of a run are the tools of one spec, so one generate, one tsc and one
 * server (in-process, over an in-memory transport) serve them all. Each schema keeps up to 5 values ajv
 * accepts and 5 it refuses out of 30 drawn. Every run also tries the fixed schemas of schema-edges.ts (shapes
 * that broke, or could break, the validators or the types).
 *
 * A run draws SCHEMA_PARITY_TOOLS schemas (default 36) from SCHEMA_PARITY_SEED (default: the time; every
 * failure names it). A longer run: `SCHEMA_PARITY_TOOLS=400 npx vitest run test/spec/schema-parity.property.test.ts`;
 * to replay a failure, give its seed (and tool count).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withMeta, type McpPair } from '../helpers/mcp-pair.ts';
import { instanceArb, toolSchemaArb, type Dialect, type Json, type JsonObject } from './schema-arbitrary.ts';
import { EDGES } from './schema-edges.ts';
import { acceptedModule, ajvVerdicts, callVerdict, codeFirstServer, generatedServer, type GeneratedServer, type ToolDef } from './tool-server.ts';

const SEED = Number(process.env['SCHEMA_PARITY_SEED'] ?? Date.now() % 2 ** 31);
const TOOLS = Number(process.env['SCHEMA_PARITY_TOOLS'] ?? 36);
const DRAWN = 30;
const KEPT = 5;

/** One generated schema as a tool, and the values tried on it with ajv's verdicts. */
interface Case {
  readonly tool: ToolDef;
  readonly schema: JsonObject;
  readonly values: readonly { readonly value: JsonObject; readonly accepted: boolean }[];
}

const isObject = (v: Json): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The cases of a run: every fourth schema draft-07, every third one an outputSchema; then the fixed ones. */
function cases(): Case[] {
  const out: Case[] = [];
  const schemas = (dialect: Dialect, n: number) => fc.sample(toolSchemaArb(dialect), { numRuns: n, seed: SEED + (dialect === 'draft-07' ? 1 : 0) });
  const drafts = schemas('draft-07', Math.ceil(TOOLS / 4));
  const latest = schemas('2020-12', TOOLS);
  for (let i = 0; i < TOOLS; i++) {
    const schema = i % 4 === 3 ? drafts[Math.floor(i / 4)]! : latest[i]!;
    const verdict = ajvVerdicts(schema);
    const seen = new Set<string>();
    const accepted: JsonObject[] = [];
    const refused: JsonObject[] = [];
    // Arguments and structured values are objects (CallToolRequest, CallToolResult): only objects are tried.
    for (const value of fc.sample(instanceArb(schema, schema), { numRuns: DRAWN, seed: SEED + i })) {
      const key = JSON.stringify(value);
      if (!isObject(value) || seen.has(key)) continue;
      seen.add(key);
      // ajv 8's Ajv2020 throws on some values of some schemas (`{ patternProperties: { _: {} }, if: {}, else:
      // { properties: { n: {} } } }` on `{ n: 1 }`: "Cannot set properties of undefined"), and so does every
      // validator built on it: there is no verdict to compare, and the value is not tried.
      let ok: boolean;
      try {
        ok = verdict(value);
      } catch {
        continue;
      }
      const list = ok ? accepted : refused;
      if (list.length < KEPT) list.push(value);
    }
    const output = i % 3 === 2;
    const tool: ToolDef = output
      ? { name: `out_${i}`, inputSchema: { type: 'object' }, outputSchema: schema }
      : { name: `in_${i}`, inputSchema: schema };
    out.push({
      tool,
      schema,
      values: [...accepted.map((value) => ({ value, accepted: true })), ...refused.map((value) => ({ value, accepted: false }))],
    });
  }
  // The fixed cases (schema-edges.ts), as arguments and as structured values.
  for (const edge of EDGES) {
    const verdict = ajvVerdicts(edge.schema);
    const values = edge.values.map((value) => ({ value, accepted: verdict(value) }));
    out.push({ tool: { name: `edge_${edge.name}`, inputSchema: edge.schema }, schema: edge.schema, values });
    out.push({ tool: { name: `edge_out_${edge.name}`, inputSchema: { type: 'object' }, outputSchema: edge.schema }, schema: edge.schema, values });
  }
  return out;
}

/** Every tool a server lists (all pages). */
async function listed(pair: McpPair): Promise<JsonObject[]> {
  const tools: JsonObject[] = [];
  let cursor: string | undefined;
  do {
    const { response } = await pair.request('tools/list', withMeta(cursor ? { cursor } : {}));
    const result = response['result'] as { tools: JsonObject[]; nextCursor?: string };
    tools.push(...result.tools);
    cursor = result.nextCursor;
  } while (cursor);
  return tools;
}

describe(`schema parity with ajv (seed ${SEED}, ${TOOLS} tools)`, () => {
  const all = cases();
  let spec: GeneratedServer;
  let code: McpPair;
  beforeAll(
    async () => {
      const typed = all.flatMap((c) =>
        c.values
          .filter((v) => v.accepted)
          .map((v) => ({ tool: c.tool, instance: v.value, as: c.tool.outputSchema ? ('value' as const) : ('args' as const) })),
      );
      spec = await generatedServer(
        'parity',
        all.map((c) => c.tool),
        { extra: { 'accepted.ts': acceptedModule(typed) } },
      );
      code = await codeFirstServer(all.map((c) => c.tool));
    },
    Math.max(120_000, TOOLS * 2_000),
  );
  afterAll(async () => {
    await spec?.dispose();
    await code?.close();
  });

  it('draws schemas both verdicts come up on', () => {
    const values = all.flatMap((c) => c.values);
    // Not a property of the servers: a guard that the run tries something (a seed where ajv accepts no value
    // of any schema, or refuses none, would test little).
    expect(values.filter((v) => v.accepted).length, `seed ${SEED}`).toBeGreaterThan(TOOLS / 4);
    expect(values.filter((v) => !v.accepted).length, `seed ${SEED}`).toBeGreaterThan(TOOLS);
  });

  it('generates, and tsc accepts the module, the server and every accepted value as its type under strict settings', () => {
    expect(spec.generateErr, `seed ${SEED}`).toEqual([]);
    // An error in accepted.ts names a value ajv accepts that its type refuses: shown with the tool's schema.
    const accepted = spec.project.read('src/accepted.ts').split('\n');
    const shown = [...spec.tsc.matchAll(/^src\/accepted\.ts\((\d+),/gm)].map((m) => {
      const line = accepted[Number(m[1]) - 1] ?? '';
      const tool = all.find((c) => line.includes(`[${JSON.stringify(c.tool.name)}]`));
      return `${line}\n  schema ${JSON.stringify(tool?.schema)}`;
    });
    expect(spec.tsc, `seed ${SEED}\n${shown.join('\n')}`).toBe('');
  });

  it('both servers list every schema exactly as written', async () => {
    for (const [way, pair] of [
      ['spec', spec.pair],
      ['code-first', code],
    ] as const) {
      const byName = new Map((await listed(pair)).map((t) => [t['name'] as string, t]));
      for (const { tool } of all) {
        const got = byName.get(tool.name);
        expect(got?.['inputSchema'], `${way} ${tool.name} (seed ${SEED})`).toEqual(tool.inputSchema);
        expect(got?.['outputSchema'], `${way} ${tool.name} (seed ${SEED})`).toEqual(tool.outputSchema);
      }
    }
  });

  it("both servers give ajv's verdict on every value", { timeout: Math.max(120_000, TOOLS * 1_000) }, async () => {
    const wrong: string[] = [];
    for (const { tool, schema, values } of all)
      for (const { value, accepted } of values) {
        const want = accepted ? 'accepted' : 'rejected';
        for (const [way, pair] of [
          ['spec', spec.pair],
          ['code-first', code],
        ] as const) {
          const got = await callVerdict(pair, tool.name, value);
          if (got !== want)
            wrong.push(`${way} ${tool.name}: ${got}, ajv: ${want}\n  schema ${JSON.stringify(schema)}\n  value ${JSON.stringify(value)}`);
        }
      }
    expect(wrong, `seed ${SEED}, ${TOOLS} tools`).toEqual([]);
  });
});
