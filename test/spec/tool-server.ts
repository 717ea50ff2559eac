/**
 * @module test/spec/tool-server — servers made from a list of tool schemas, the ways a user makes them, and
 * ajv's verdict on the same schemas to hold them to:
 *
 * - {@link generatedServer}: a user's project (test/spec/project.ts) with a spec of the tools, `wiregen
 *   generate --spec`, tsc over the project under the strict settings `wiregen init` writes (plus
 *   `skipLibCheck: false`), and the project's own server module (src/server.ts, the one tsc checked)
 *   imported and connected to an in-memory client (test/helpers/mcp-pair.ts);
 * - {@link codeFirstServer}: the same tools through `mcpServer().tool(name, { input, output }, fn)`;
 * - {@link ajvAccepts}: a fresh ajv of the schema's dialect (Ajv2020, or Ajv for a draft-07 `$schema`) with
 *   ajv-formats, not strict, all errors: the verdict every server must give.
 *
 * A tool with an outputSchema returns its arguments as its structured value (the input schema is then
 * `{ type: object }`), so calling it with an instance asks for the output verdict on that instance; a tool
 * without one answers `ok`. A rejection is whichever form the server gives it: an `isError` result (a
 * behaviour here never throws) or a JSON-RPC error -32602; any other answer is a failure of the test.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import type { McpServer } from '../../runtime/mcp/server/server.ts';
import { mcpPair, withMeta, type McpPair } from '../helpers/mcp-pair.ts';
import { ROOT } from '../helpers/project.ts';
import { userProject, type UserProject } from './project.ts';

const run = promisify(execFile);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** A tool as listed (name, schemas, and any other Tool field, kept as given). */
export type ToolDef = JsonObject & { readonly name: string; readonly inputSchema: JsonObject; readonly outputSchema?: JsonObject };

const DRAFT_07 = /^http:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** A fresh ajv for `schema`'s dialect, with ajv-formats: what every verdict here is compared with. */
export function referenceAjv(schema: JsonObject) {
  const draft07 = typeof schema['$schema'] === 'string' && DRAFT_07.test(schema['$schema']);
  const ajv = draft07 ? new Ajv.default({ strict: false, allErrors: true }) : new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv;
}

/** `schema` compiled by a fresh {@link referenceAjv}: ajv's verdict on a value (as it travels: through JSON). */
export function ajvVerdicts(schema: JsonObject): (instance: unknown) => boolean {
  const validate = referenceAjv(schema).compile(schema);
  return (instance) => validate(JSON.parse(JSON.stringify(instance))) as boolean;
}

/** ajv's verdict on one value (see {@link ajvVerdicts}). */
export function ajvAccepts(schema: JsonObject, instance: unknown): boolean {
  return ajvVerdicts(schema)(instance);
}

/** The spec of `tools` (JSON, which is YAML), with one resource and one prompt so the module uses every import. */
export function specOf(name: string, tools: readonly ToolDef[]): string {
  const spec = {
    name,
    main: './src/server.ts',
    serverInfo: { name, version: '1.0.0' },
    capabilities: { handshake: { tools: {}, resources: {}, prompts: {} }, stateless: { tools: {}, resources: {}, prompts: {} } },
    tools: tools.map((t) => (t.outputSchema ? { ...t, output: 'structured' } : { ...t, output: 'text' })),
    resources: [{ uri: 'test://r', name: 'r' }],
    prompts: [{ name: 'p' }],
  };
  return `${JSON.stringify(spec, null, 2)}\n`;
}

/** What a tool's function returns: the value `results` gives it, or its arguments (a tool with an outputSchema), or `ok`. */
export type Results = Readonly<Record<string, unknown>>;

/** The project's server module: every tool's function, typed by the generated module. */
function serverModule(tools: readonly ToolDef[], results: Results): string {
  const fns = tools.map((t) => {
    const name = JSON.stringify(t.name);
    if (Object.hasOwn(results, t.name)) return `    ${name}: () => (${JSON.stringify(results[t.name])}) as unknown as ToolValues[${name}],`;
    return t.outputSchema ? `    ${name}: (args) => args as unknown as ToolValues[${name}],` : `    ${name}: () => 'ok',`;
  });
  return [
    `import { createServer${tools.some((t) => t.outputSchema) ? ', type ToolValues' : ''} } from './generated/index.js';`,
    '',
    'export default createServer({',
    '  tools: {',
    ...fns,
    '  },',
    "  resources: { 'test://r': () => 'r' },",
    "  prompts: { p: () => 'p' },",
    '});',
    '',
  ].join('\n');
}

/**
 * A module tsc checks beside the server: each instance ajv accepts, given to a function whose parameter is
 * the generated type of that tool's arguments (`args`) or value (`value`), so a type that refuses a valid
 * instance is a compile error naming it. `const` type parameters keep each literal's own types.
 */
export function acceptedModule(cases: readonly { tool: ToolDef; instance: unknown; as: 'args' | 'value' }[]): string {
  const lines = cases.map(
    ({ tool, instance, as }) =>
      `accepts<${as === 'value' ? 'ToolValues' : 'ToolArgs'}[${JSON.stringify(tool.name)}]>()(${JSON.stringify(instance)});`,
  );
  const used = ['args', 'value'].filter((as) => cases.some((c) => c.as === as)).map((as) => (as === 'value' ? 'ToolValues' : 'ToolArgs'));
  return [
    ...(used.length ? [`import type { ${used.join(', ')} } from './generated/index.js';`, ''] : []),
    'export function accepts<T>() {',
    '  return <const V extends T>(value: V): V => value;',
    '}',
    '',
    ...lines,
    '',
  ].join('\n');
}

/** Runs tsc over the project with the tsconfig `wiregen init` writes, `@wiregen/*` resolved to this repository's sources. */
export async function strictTsc(project: UserProject): Promise<string> {
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2023'],
      types: ['node'],
      strict: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noImplicitOverride: true,
      verbatimModuleSyntax: true,
      skipLibCheck: false,
      noEmit: true,
      // Only because the paths lead to this repository's sources, which import each other with `.ts`.
      allowImportingTsExtensions: true,
      rootDir: '/',
      paths: {
        '@wiregen/runtime': [join(ROOT, 'runtime/index.ts')],
        '@wiregen/runtime/*': [join(ROOT, 'runtime/*/index.ts')],
        '@wiregen/core': [join(ROOT, 'core/index.ts')],
        '@wiregen/*': [join(ROOT, 'generated/*/index.ts')],
      },
    },
    include: ['src'],
  };
  writeFileSync(project.path('tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  try {
    const { stdout } = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project.root, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    return (err as { stdout?: string }).stdout || String(err);
  }
}

/** How a server answered a tools/call. */
export type Verdict = 'accepted' | 'rejected';

/** Calls `tool` with `args` and reads the verdict; throws on any answer that is neither. */
export async function callVerdict(pair: McpPair, tool: string, args: unknown): Promise<Verdict> {
  const { response } = await pair.request('tools/call', withMeta({ name: tool, arguments: args as JsonObject }));
  const error = response['error'] as { code: number; message: string } | undefined;
  if (error) {
    if (error.code === -32602 && !/unknown tool/i.test(error.message)) return 'rejected';
    throw new Error(`tools/call ${tool}: ${JSON.stringify(error)}`);
  }
  const result = response['result'] as { isError?: boolean } | undefined;
  if (!result) throw new Error(`tools/call ${tool}: ${JSON.stringify(response)}`);
  return result.isError === true ? 'rejected' : 'accepted';
}

/** A generated project and its server. */
export interface GeneratedServer {
  readonly project: UserProject;
  /** What generate printed on stderr (nothing, when it succeeded). */
  readonly generateErr: readonly string[];
  /** tsc's output over the project (empty when it compiles). */
  readonly tsc: string;
  readonly pair: McpPair;
  dispose(): Promise<void>;
}

/** How {@link generatedServer} makes a project. */
export interface GeneratedOptions {
  /** More modules under src/ for tsc to check (e.g. {@link acceptedModule}). */
  readonly extra?: Readonly<Record<string, string>>;
  /** Fixed values tools return (see {@link Results}). */
  readonly results?: Results;
  /** Run tsc over the project (default true; {@link GeneratedServer.tsc} is empty when not). */
  readonly typecheck?: boolean;
}

/**
 * `tools` as a user's spec-first server: generate, tsc, import src/server.ts, connect. `generate` failing is
 * an error naming its output.
 */
export async function generatedServer(name: string, tools: readonly ToolDef[], options: GeneratedOptions = {}): Promise<GeneratedServer> {
  const results = options.results ?? {};
  const files: Record<string, string> = { 'server.yaml': specOf(name, tools), 'src/server.ts': serverModule(tools, results) };
  for (const [file, text] of Object.entries(options.extra ?? {})) files[`src/${file}`] = text;
  const project = userProject(files, { nodeModules: true });
  const generated = await project.cli(['generate', '--spec', 'server.yaml', '--out', 'src/generated']);
  if (generated.code !== 0) {
    project.dispose();
    throw new Error(`generate exited ${generated.code}:\n${generated.err.join('\n')}`);
  }
  const tsc = options.typecheck === false ? '' : await strictTsc(project);
  const server = ((await import(pathToFileURL(project.path('src/server.ts')).href)) as { default: McpServer }).default;
  const pair = mcpPair(server);
  return {
    project,
    generateErr: generated.err,
    tsc,
    pair,
    async dispose() {
      await pair.close();
      project.dispose();
    },
  };
}

/** `tools` written in code (`mcpServer().tool(...)`), built and connected; their functions as {@link Results} say. */
export async function codeFirstServer(tools: readonly ToolDef[], results: Results = {}): Promise<McpPair> {
  let builder = mcpServer({ name: 'code-first', version: '1.0.0' });
  for (const { name, inputSchema, outputSchema, ...listing } of tools) {
    const { title, description } = listing as { title?: string; description?: string };
    builder = builder.tool(
      name,
      {
        input: inputSchema as never,
        ...(outputSchema ? { output: outputSchema as never } : {}),
        ...(title ? { title } : {}),
        ...(description ? { description } : {}),
      },
      (Object.hasOwn(results, name) ? () => results[name] : outputSchema ? (args: unknown) => args : () => 'ok') as never,
    );
  }
  return mcpPair(await builder.build({ log: () => {} }));
}
