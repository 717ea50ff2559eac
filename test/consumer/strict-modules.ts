/**
 * @module test/consumer/strict-modules — the user projects of the strict type-check in consumer.test.ts: one MCP
 * server spec per combination of items that changes what generator/emit/templates/server.ts.hbs writes (no
 * items; tools without and with an outputSchema, each `output`; resources; resource templates of every RFC 6570
 * operator; prompts with and without arguments; all of them with completions), the repository's A2A agent
 * specs (agent.ts.hbs with and without an extended card and webhooks, both behaviour sets), and for each the
 * behaviours a user writes, which must compile against the generated types, plus a file that imports every
 * entry point of every package. tsc checks them all at once under the strict consumer flags, without skipLibCheck.
 */

/** One generated module: its spec (YAML) and the user's file that uses it. */
export interface StrictModule {
  readonly name: string;
  readonly spec: string;
  /** `src/<name>/behaviours.ts`, importing `./generated/index.js`. */
  readonly behaviours: string;
}

/** The compiler options the check uses: what `wiregen init` writes, and nothing skipped. */
export const STRICT_OPTIONS = {
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
} as const;

const server = (name: string, capabilities: string, items: string) =>
  `name: ${name}
serverInfo: { name: ${name}, version: 1.0.0 }
capabilities:
  handshake: { ${capabilities} }
  stateless: { ${capabilities} }
${items}`;

const TEXT_TOOLS = `  - name: echo
    inputSchema:
      type: object
      properties: { text: { type: string }, times: { type: integer, minimum: 1 } }
      required: [text]
  - name: raw
    inputSchema: { type: object }
    output: result
`;
const OUTPUT_TOOLS = `  - name: add
    inputSchema: { type: object, properties: { a: { type: number }, b: { type: number } }, required: [a, b] }
    outputSchema: { type: object, properties: { sum: { type: number } }, required: [sum] }
    output: structured
  - name: half
    inputSchema: { type: object, properties: { n: { type: number } }, required: [n] }
    outputSchema: { type: object, properties: { result: { type: number } }, required: [result] }
`;
const RESOURCES = `  - { uri: "notes://index", name: index, mimeType: text/plain }
  - { uri: "notes://logo", name: logo }
`;
const TEMPLATES = `  - { uriTemplate: "notes://{folder}/{id}{?rev}", name: note }
  - { uriTemplate: "files://{+path}{#section}", name: file }
  - { uriTemplate: "tags://all{/tag*}{;lang}{&page,size}", name: tagged }
  - { uriTemplate: "labels://x{.ext}", name: label }
`;
const PROMPTS = `  - name: plan
    arguments: [{ name: city, required: true }, { name: days }]
  - name: hello
`;

const TEXT_TOOL_BEHAVIOURS = `echo: ({ text, times = 1 }) => text.repeat(times),
    raw: () => ({ content: [{ type: 'text', text: 'raw' }] }),`;
const OUTPUT_TOOL_BEHAVIOURS = `add: ({ a, b }) => ({ sum: a + b }),
    half: ({ n }) => n / 2,`;
const RESOURCE_BEHAVIOURS = `'notes://index': () => 'index',
    'notes://logo': () => ({ blob: 'iVBO', mimeType: 'image/png' }),`;
// Required variables are strings (noUncheckedIndexedAccess finds no undefined in them), optional ones may be absent.
const TEMPLATE_BEHAVIOURS = `'notes://{folder}/{id}{?rev}': ({ folder, id, rev }) => \`\${folder.toUpperCase()}/\${id.trim()}@\${rev ?? 'latest'}\`,
    'files://{+path}{#section}': ({ path, section }) => (section === undefined ? path.split('/').join(' > ') : section),
    'tags://all{/tag*}{;lang}{&page,size}': ({ tag, lang = 'en', page, size }) => [tag.join('+'), lang, page ?? '1', size ?? '10'].join(' '),
    'labels://x{.ext}': (vars, ctx) => \`\${vars.ext.length} \${ctx.method}\`,`;
const PROMPT_BEHAVIOURS = `plan: ({ city, days }) => \`Plan \${days ?? 'a day'} in \${city.trim()}.\`,
    hello: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }),`;

const behaviours = (sections: Readonly<Record<string, string>>, extra = '') =>
  `import { createServer } from './generated/index.js';

export default createServer({
${Object.entries(sections)
  .map(([section, body]) => `  ${section}: {\n    ${body}\n  },`)
  .join('\n')}
});
${extra}`;

/** The MCP server modules. */
export const SERVERS: readonly StrictModule[] = [
  { name: 'no-items', spec: server('no-items', '', ''), behaviours: behaviours({}) },
  {
    name: 'text-tools',
    spec: server('text-tools', 'tools: {}', `tools:\n${TEXT_TOOLS}`),
    behaviours: behaviours({ tools: TEXT_TOOL_BEHAVIOURS }),
  },
  {
    name: 'output-tools',
    spec: server('output-tools', 'tools: {}', `tools:\n${OUTPUT_TOOLS}`),
    behaviours: behaviours({ tools: OUTPUT_TOOL_BEHAVIOURS }),
  },
  {
    name: 'resources',
    spec: server('resources', 'resources: {}', `resources:\n${RESOURCES}`),
    behaviours: behaviours({ resources: RESOURCE_BEHAVIOURS }),
  },
  {
    name: 'templates',
    spec: server('templates', 'resources: {}', `resourceTemplates:\n${TEMPLATES}`),
    behaviours: behaviours(
      { resourceTemplates: TEMPLATE_BEHAVIOURS },
      `
// @ts-expect-error a resource template without a behaviour is a compile error
export const missing = createServer({ resourceTemplates: { 'notes://{folder}/{id}{?rev}': () => '' } });
// @ts-expect-error a template has no variable it does not name
export const unknown = createServer({ resourceTemplates: { 'labels://x{.ext}': ({ id }) => id, 'notes://{folder}/{id}{?rev}': () => '', 'files://{+path}{#section}': () => '', 'tags://all{/tag*}{;lang}{&page,size}': () => '' } });
`,
    ),
  },
  {
    // Tools named after what the module declares itself (its ToolArgs, PromptArgs): their types get other names.
    name: 'module-names',
    spec: server(
      'module-names',
      'tools: {}',
      `tools:
  - { name: tool, inputSchema: { type: object, properties: { n: { type: number } }, required: [n] } }
  - { name: prompt, inputSchema: { type: object, properties: { s: { type: string } }, required: [s] } }
`,
    ),
    behaviours: behaviours({ tools: 'tool: ({ n }) => n.toFixed(1),\n    prompt: ({ s }) => s.trim(),' }),
  },
  {
    name: 'prompts',
    spec: server('prompts', 'prompts: {}', `prompts:\n${PROMPTS}`),
    behaviours: behaviours({ prompts: PROMPT_BEHAVIOURS }),
  },
  {
    name: 'everything',
    spec: server(
      'everything',
      'tools: {}, resources: {}, prompts: {}, completions: {}',
      `tools:\n${TEXT_TOOLS}${OUTPUT_TOOLS}resources:\n${RESOURCES}resourceTemplates:\n${TEMPLATES}prompts:\n${PROMPTS}`,
    ),
    behaviours: behaviours(
      {
        tools: `${TEXT_TOOL_BEHAVIOURS}\n    ${OUTPUT_TOOL_BEHAVIOURS}`,
        resources: RESOURCE_BEHAVIOURS,
        resourceTemplates: TEMPLATE_BEHAVIOURS,
        prompts: PROMPT_BEHAVIOURS,
      },
      `
export const completing = createServer(
  {
    tools: { echo: ({ text }) => text, raw: () => ({ content: [] }), add: () => ({ sum: 0 }), half: () => 0 },
    resources: { 'notes://index': () => '', 'notes://logo': () => '' },
    resourceTemplates: { 'notes://{folder}/{id}{?rev}': () => '', 'files://{+path}{#section}': () => '', 'tags://all{/tag*}{;lang}{&page,size}': () => '', 'labels://x{.ext}': () => '' },
    prompts: { plan: () => '', hello: () => '' },
    complete: ({ argument }) => ['alpha', 'beta'].filter((v) => v.startsWith(argument.value)),
  },
  { requestTimeoutMs: 5_000, log: (line) => console.error(line) },
);
`,
    ),
  },
];

/**
 * An agent's executor as a user writes it; `secured` (a card that requires a bearer token) also gives the verifier
 * its generated createAgent then requires.
 */
export function agentBehaviours(secured: boolean): string {
  return `import { createAgent } from './generated/index.js';

export default createAgent(
  {
    async execute(ctx) {
      if (ctx.text === 'hello') return ctx.reply('hi');
      const task = await ctx.startTask();
      await task.complete();
    },
  },${secured ? "\n  { verifiers: { bearer: (token) => token === 'secret' } }," : ''}
);
`;
}
