/**
 * The manifest is cross-checked against the schema (and the A2A proto): each injected inconsistency is
 * reported with a message naming both sides, and nothing is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { copyProject, runCli, type Project } from '../helpers/project.ts';

const MCP = 'schemas/manifest/mcp-2026-07-28.yaml';
const A2A = 'schemas/manifest/a2a-1.0.yaml';
let project: Project;
afterEach(() => project?.dispose());

/** Runs `generate --only <pin>` on a broken copy and returns what it printed on stderr. */
async function generateErrors(edit: (p: Project) => void, pin = 'mcp-2026-07-28'): Promise<string[]> {
  project = copyProject({ generated: true });
  edit(project);
  const before = readFileSync(project.path(`generated/${pin}/dispatch.ts`), 'utf8');
  const { code, err } = await runCli(['generate', '--only', pin], project.root);
  expect(code).toBe(2);
  // generated/ is left as it was.
  expect(readFileSync(project.path(`generated/${pin}/dispatch.ts`), 'utf8')).toBe(before);
  expect(readdirSync(project.root).sort()).toEqual(['generated', 'schemas']);
  return err;
}

describe('manifest cross-check (MCP)', () => {
  it('a method the schema defines but the manifest omits', async () => {
    const err = await generateErrors((p) => p.edit(MCP, / {2}tools\/call:\n( {4}.*\n)+/, ''));
    expect(err).toEqual([
      'schemas/mcp/2026-07-28/schema.json /$defs/CallToolRequest: fixes method "tools/call", but schemas/manifest/mcp-2026-07-28.yaml has no entry for it',
    ]);
  });

  it('a manifest entry naming a missing $def', async () => {
    const err = await generateErrors((p) => p.edit(MCP, 'message: CallToolRequest\n', 'message: CallToolRequestX\n'));
    expect(err).toEqual([
      'schemas/mcp/2026-07-28/schema.json /$defs/CallToolRequest: fixes method "tools/call", but schemas/manifest/mcp-2026-07-28.yaml /methods/tools~1call names message CallToolRequestX and not CallToolRequest (list it under aliases if it is the same message)',
      'schemas/manifest/mcp-2026-07-28.yaml:75:14 /methods/tools~1call/message: names $def CallToolRequestX, which schemas/mcp/2026-07-28/schema.json does not define',
    ]);
  });

  it('params and result that disagree with the schema', async () => {
    const err = await generateErrors((p) => {
      p.edit(MCP, 'params: CallToolRequestParams\n', 'params: GetPromptRequestParams\n');
      p.edit(MCP, 'result: CallToolResult\n', 'result: NoSuchResult\n');
    });
    expect(err).toEqual([
      'schemas/manifest/mcp-2026-07-28.yaml:76:13 /methods/tools~1call/params: is "GetPromptRequestParams", but schemas/mcp/2026-07-28/schema.json /$defs/CallToolRequest/properties/params is "CallToolRequestParams"',
      'schemas/manifest/mcp-2026-07-28.yaml:77:13 /methods/tools~1call/result: names $def NoSuchResult, which schemas/mcp/2026-07-28/schema.json does not define',
    ]);
  });

  it('flags and direction the schema contradicts', async () => {
    const err = await generateErrors((p) => {
      p.edit(MCP, '    inputRequired: true\n    mcpName: name\n  completion', '    mcpName: name\n  completion');
      p.edit(MCP, /( {2}tools\/list:\n(?: {4}.*\n)*?) {4}cacheable: true\n/, '$1');
      p.edit(MCP, /( {2}notifications\/message:\n {4}kind: notification\n) {4}direction: server-to-client/, '$1    direction: both');
      p.edit(MCP, 'capability: server.tools\n', 'capability: server.toolz\n');
    });
    expect(err).toEqual([
      'schemas/manifest/mcp-2026-07-28.yaml:65:5 /methods/tools~1list/cacheable: is absent, but ListToolsResult does require ttlMs and cacheScope',
      'schemas/manifest/mcp-2026-07-28.yaml:70:17 /methods/tools~1list/capability: server.toolz: schemas/mcp/2026-07-28/schema.json /$defs/ServerCapabilities has no property path toolz',
      'schemas/manifest/mcp-2026-07-28.yaml:72:5 /methods/tools~1call/inputRequired: is absent, but CallToolRequestParams does accept inputResponses (multi round-trip)',
      "schemas/manifest/mcp-2026-07-28.yaml:147:16 /methods/notifications~1message/direction: is both, but the schema's Client*/Server* unions make it server-to-client",
    ]);
  });
});

describe('manifest cross-check (A2A, against the proto)', () => {
  it('an rpc the proto declares but the manifest omits, and a route that differs', async () => {
    const err = await generateErrors((p) => {
      p.edit(A2A, / {2}GetTask:\n( {4}.*\n| {6}.*\n)+?(?= {2}ListTasks:)/, '');
      p.edit(A2A, 'path: "/message:send"', 'path: "/message:sendit"');
    }, 'a2a-1.0');
    expect(err).toEqual([
      "schemas/manifest/a2a-1.0.yaml:18:7 /methods/SendMessage/http: is POST /message:sendit body *, POST /{tenant}/message:send body *, but the proto's rpc SendMessage (line 21) is annotated POST /message:send body *, POST /{tenant}/message:send body *",
      'schemas/a2a/1.0/a2a.proto:45:3: rpc GetTask of service A2AService has no entry in schemas/manifest/a2a-1.0.yaml',
    ]);
  });

  it('params, result and streaming that disagree with the rpc', async () => {
    const err = await generateErrors((p) => {
      p.edit(A2A, /( {2}SendStreamingMessage:\n(?: {4}.*\n)*?) {4}result: StreamResponse\n/, '$1    result: Task\n');
      p.edit(A2A, /( {2}SendStreamingMessage:\n(?: {4}.*\n)*?) {4}streaming: true\n/, '$1    streaming: false\n');
    }, 'a2a-1.0');
    expect(err).toEqual([
      "schemas/manifest/a2a-1.0.yaml:24:13 /methods/SendStreamingMessage/result: is Task, but the proto's rpc SendStreamingMessage (line 33) returns stream StreamResponse",
      "schemas/manifest/a2a-1.0.yaml:26:16 /methods/SendStreamingMessage/streaming: is false, but the proto's rpc SendStreamingMessage (line 33) returns a stream",
    ]);
  });
});
