/**
 * `wiregen generate --spec … --out … --check` on a stale module: beside the files that differ, what changed for
 * clients since the module was generated, as `wiregen diff` reports it, read from the spec the module holds.
 * The specs are ours: a server whose required argument `id` becomes `noteId`, whose tool `summarize` goes and
 * whose `get` stops being read-only; an agent that stops streaming.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { position, userProject } from '../spec/project.ts';

const SERVER = `name: notes
main: ./src/server.ts
serverInfo: { name: notes, version: 1.0.0 }
capabilities:
  handshake: { tools: {} }
  stateless: { tools: {} }
tools:
  - name: get
    annotations: { readOnlyHint: true }
    inputSchema:
      type: object
      properties: { id: { type: string } }
      required: [id]
  - name: summarize
    inputSchema: { type: object }
`;
const CHANGED = SERVER.replace('    annotations: { readOnlyHint: true }\n', '')
  .replace('properties: { id: { type: string } }', 'properties: { noteId: { type: string } }')
  .replace('required: [id]', 'required: [noteId]')
  .replace('  - name: summarize\n    inputSchema: { type: object }\n', '');

const AGENT = `name: echo
card:
  name: Echo
  description: Echoes.
  version: 1.0.0
  supportedInterfaces:
    - { url: "http://127.0.0.1:41241/a2a", protocolBinding: JSONRPC, protocolVersion: "1.0" }
  capabilities: { streaming: true }
  defaultInputModes: [text/plain]
  defaultOutputModes: [text/plain]
  skills:
    - { id: echo, name: Echo, description: "Echoes, \\"as is\\".", tags: [text] }
`;

const project = userProject({ 'server.yaml': SERVER, 'agent.yaml': AGENT }, { nodeModules: true });
afterAll(() => project.dispose());

/** `<class> <RULE> <where>: <message>`, as the text output lays a finding out. */
const line = (cls: string, rule: string, where: string, message: string) => `  ${cls.padEnd(15)} ${rule.padEnd(28)} ${where}: ${message}`;

describe('generate --spec --check: what changed since the module was generated', () => {
  it('a server: the stale files, then the findings; exit 1', async () => {
    expect((await project.cli(['generate', '--spec', 'server.yaml', '--out', 'src/generated'])).code).toBe(0);
    project.write('server.yaml', CHANGED);
    const { code, out, err } = await project.cli(['generate', '--spec', 'server.yaml', '--out', 'src/generated', '--check']);
    expect([code, err]).toEqual([1, []]);
    expect(out[0]).toMatch(/^src\/generated is stale: 2 file\(s\) differ from what server\.yaml generates/);
    expect(out.slice(1)).toEqual([
      '  src/generated/index.ts',
      '  src/generated/validators.ts',
      'since src/generated was generated: 3 wire-breaking, 0 source-breaking, 0 compatible',
      line(
        'wire-breaking',
        'TOOL_ANNOTATION_SAME',
        `server.yaml:${position(CHANGED, 'name: get')} /tools/0`,
        'tool get is no longer read-only (readOnlyHint true → (absent: false)): clients that call read-only tools without asking the user now ask, or refuse',
      ),
      line(
        'wire-breaking',
        'PROPERTY_RENAMED',
        `server.yaml:${position(CHANGED, '{ type: string }')} /tools/0/inputSchema/properties/noteId`,
        'tool get input: renamed `id` → `noteId`: clients that send `id` are refused (`noteId` is required)',
      ),
      line('wire-breaking', 'TOOL_NO_DELETE', 'server.yaml@src/generated /tools/1', 'tool summarize removed'),
    ]);
  });

  it('an agent: its card, strings with quotes included', async () => {
    expect((await project.cli(['generate', '--spec', 'agent.yaml', '--out', 'src/agent'])).code).toBe(0);
    const off = AGENT.replace('streaming: true', 'streaming: false');
    project.write('agent.yaml', off);
    const { code, out } = await project.cli(['generate', '--spec', 'agent.yaml', '--out', 'src/agent', '--check']);
    expect(code).toBe(1);
    expect(out.slice(-2)).toEqual([
      'since src/agent was generated: 1 wire-breaking, 0 source-breaking, 0 compatible',
      line(
        'wire-breaking',
        'CAPABILITY_NO_DELETE',
        // Located in the module's copy, which has no lines of its own to point at.
        'agent.yaml@src/agent /card/capabilities/streaming',
        'capabilities.streaming turned off',
      ),
    ]);
  });

  it('a module whose spec cannot be read back (another template): the stale files only', async () => {
    const index = project.read('src/agent/index.ts');
    project.write('src/agent/index.ts', index.replace('export const card = {', 'export const card = ({'));
    const { code, out } = await project.cli(['generate', '--spec', 'agent.yaml', '--out', 'src/agent', '--check']);
    expect(code).toBe(1);
    expect(out.slice(1)).toEqual(['  src/agent/index.ts']);
  });
});
