/**
 * A server built from real published tool definitions (test/fixtures/published-tools/, see PROVENANCE.md):
 * the 13 tools `@modelcontextprotocol/server-everything` lists (draft-07 schemas, an outputSchema, `execution`,
 * annotations) and the 117 of GitHub's MCP server (2020-12 schemas, `_meta`, enums, bounds, unions). As a
 * user's spec (`wiregen generate --spec`, strict tsc, served): generates, type-checks, lists every definition
 * exactly as published, and accepts exactly the arguments ajv accepts (and, for an outputSchema, the
 * structured values); the same tools written in code (`mcpServer().tool(...)`) validate alike.
 *
 * Values tried per schema: the arguments a client would send by default (test/helpers/schema-sample.ts) and
 * values drawn from the schema (test/spec/schema-arbitrary.ts, fixed seed), up to 4 ajv accepts and 4 it
 * refuses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withMeta, type McpPair } from '../helpers/mcp-pair.ts';
import { ROOT } from '../helpers/project.ts';
import { sampleArguments, sampleValue } from '../helpers/schema-sample.ts';
import { instanceArb, type Json, type JsonObject } from './schema-arbitrary.ts';
import { acceptedModule, ajvVerdicts, callVerdict, codeFirstServer, generatedServer, type GeneratedServer, type ToolDef } from './tool-server.ts';

const read = (file: string) => JSON.parse(readFileSync(join(ROOT, 'test/fixtures/published-tools', file), 'utf8')) as { tools: ToolDef[] };
const PUBLISHED = [...read('server-everything.json').tools, ...read('github-mcp-server.json').tools];
const SEED = 20261203;
const KEPT = 4;

/** A tool that returns its arguments as its structured value, to try a published outputSchema on values. */
const outputCheck = (tool: ToolDef): ToolDef => ({
  name: `output-of.${tool.name}`,
  inputSchema: { type: 'object' },
  outputSchema: tool.outputSchema!,
});

/** Up to KEPT values `schema` accepts and KEPT it refuses: `first` (when an object), then drawn ones. */
function valuesFor(schema: JsonObject, first: unknown, seed: number): { value: JsonObject; accepted: boolean }[] {
  const verdict = ajvVerdicts(schema);
  const seen = new Set<string>();
  const kept: { value: JsonObject; accepted: boolean }[] = [];
  const count = (accepted: boolean) => kept.filter((k) => k.accepted === accepted).length;
  for (const value of [first as Json, ...fc.sample(instanceArb(schema, schema), { numRuns: 24, seed })]) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || seen.has(JSON.stringify(value))) continue;
    seen.add(JSON.stringify(value));
    const accepted = verdict(value);
    if (count(accepted) < KEPT) kept.push({ value, accepted });
  }
  return kept;
}

describe('a server from published tool definitions (server-everything, github-mcp-server)', () => {
  const withOutput = PUBLISHED.filter((t) => t.outputSchema);
  const tools = [...PUBLISHED, ...withOutput.map(outputCheck)];
  // A published tool with an outputSchema returns a value its schema accepts, so its verdict is its arguments'.
  const results = Object.fromEntries(withOutput.map((t) => [t.name, sampleValue(t.outputSchema)]));
  const cases = tools.map((tool, i) => {
    const schema = (tool.outputSchema && tool.name.startsWith('output-of.') ? tool.outputSchema : tool.inputSchema) as JsonObject;
    const first = tool.name.startsWith('output-of.') ? sampleValue(schema) : sampleArguments(schema);
    return { tool, schema, values: valuesFor(schema, first, SEED + i) };
  });
  let spec: GeneratedServer;
  let code: McpPair;
  beforeAll(async () => {
    const typed = cases.flatMap((c) =>
      c.values
        .filter((v) => v.accepted)
        .map((v) => ({ tool: c.tool, instance: v.value, as: c.tool.name.startsWith('output-of.') ? ('value' as const) : ('args' as const) })),
    );
    spec = await generatedServer('published', tools, { results, extra: { 'accepted.ts': acceptedModule(typed) } });
    code = await codeFirstServer(tools, results);
  });
  afterAll(async () => {
    await spec?.dispose();
    await code?.close();
  });

  it('tries values of both verdicts, and the fixed values are ones the outputSchemas accept', () => {
    for (const [name, value] of Object.entries(results))
      expect(ajvVerdicts(PUBLISHED.find((t) => t.name === name)!.outputSchema!)(value), name).toBe(true);
    const values = cases.flatMap((c) => c.values);
    expect(values.filter((v) => v.accepted).length).toBeGreaterThan(tools.length);
    expect(values.filter((v) => !v.accepted).length).toBeGreaterThan(tools.length);
  });

  it('generates, and tsc accepts the module, the server and every accepted value as its type under strict settings', () => {
    expect(spec.generateErr).toEqual([]);
    expect(spec.tsc).toBe('');
  });

  it('lists every published definition exactly as published', async () => {
    const listed: JsonObject[] = [];
    let cursor: string | undefined;
    do {
      const { response } = await spec.pair.request('tools/list', withMeta(cursor ? { cursor } : {}));
      const result = response['result'] as { tools: JsonObject[]; nextCursor?: string };
      listed.push(...result.tools);
      cursor = result.nextCursor;
    } while (cursor);
    const byName = new Map(listed.map((t) => [t['name'], t]));
    for (const tool of PUBLISHED) expect(byName.get(tool.name), tool.name).toEqual(tool);
  });

  it('validates every value as ajv does, in the spec server and in the code-first one', async () => {
    const wrong: string[] = [];
    for (const { tool, values } of cases)
      for (const { value, accepted } of values)
        for (const [way, pair] of [
          ['spec', spec.pair],
          ['code-first', code],
        ] as const) {
          const got = await callVerdict(pair, tool.name, value);
          if (got !== (accepted ? 'accepted' : 'rejected')) wrong.push(`${way} ${tool.name} ${JSON.stringify(value)}: ${got}`);
        }
    expect(wrong).toEqual([]);
  });
});
