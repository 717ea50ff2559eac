/**
 * `wiregen diff` in a user's project (no schemas/pins.json): their spec is their contract. `--against HEAD`
 * compares the spec in the working tree with the committed one, two spec files are compared with each other, and
 * each change is classed by what it does to the clients: a tool's inputSchema as what they send, its outputSchema
 * as what they receive. What needs the wiregen repository (two pins, `wiregen pin`) says so in one line.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { position, userProject, type UserProject } from '../spec/project.ts';

const SERVER = `name: notes
main: ./src/server.ts
serverInfo: { name: notes, version: 1.0.0 }
capabilities:
  handshake: { tools: {}, resources: {}, prompts: {} }
  stateless: { tools: {}, resources: {}, prompts: {} }
tools:
  - name: add
    inputSchema:
      type: object
      properties: { title: { type: string }, body: { type: string }, tag: { enum: [work, home] } }
      required: [title]
    outputSchema:
      type: object
      properties: { id: { type: string }, created: { type: string } }
      required: [id, created]
  - name: purge
    inputSchema: { type: object }
resources:
  - { uri: "notes://all", name: all, mimeType: application/json }
prompts:
  - name: summarise
    arguments: [{ name: topic, required: true }]
`;

/** Every kind of change: what breaks clients, and what does not. */
const CHANGED = `name: notes
main: ./src/server.ts
serverInfo: { name: notes, version: 1.1.0 }
unknownTool: result
capabilities:
  handshake: { tools: {}, prompts: {} }
  stateless: { tools: {}, prompts: {}, logging: {} }
tools:
  - name: add
    inputSchema:
      type: object
      properties: { title: { type: string, maxLength: 80 }, body: { type: string }, tag: { enum: [work, home, misc] }, due: { type: string } }
      required: [title, due]
    outputSchema:
      type: object
      properties: { id: { type: string }, created: { type: string } }
      required: [id]
  - name: search
    inputSchema: { type: object }
prompts:
  - name: summarise
    arguments: [{ name: topic }, { name: style, required: true }]
`;

const AGENT = `name: translator
card:
  name: Translator
  description: Translates text.
  version: 1.0.0
  supportedInterfaces:
    - { url: "http://127.0.0.1:41241/a2a", protocolBinding: JSONRPC, protocolVersion: "1.0" }
    - { url: "http://127.0.0.1:41241", protocolBinding: HTTP+JSON, protocolVersion: "1.0" }
  capabilities: { streaming: true, pushNotifications: false }
  defaultInputModes: [text/plain]
  defaultOutputModes: [text/plain]
  skills:
    - { id: translate, name: Translate, description: Translates., tags: [text] }
    - { id: detect, name: Detect, description: Detects the language., tags: [text] }
`;

const AGENT_CHANGED = AGENT.replace('    - { url: "http://127.0.0.1:41241", protocolBinding: HTTP+JSON, protocolVersion: "1.0" }\n', '')
  .replace('streaming: true, pushNotifications: false', 'streaming: false, pushNotifications: true')
  .replace('defaultInputModes: [text/plain]', 'defaultInputModes: [text/plain, text/html]')
  .replace('    - { id: detect, name: Detect, description: Detects the language., tags: [text] }\n', '')
  .replace(
    '  skills:',
    '  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: Bearer } } }\n  securityRequirements: [{ schemes: { bearer: {} } }]\n  skills:',
  );

let project: UserProject;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: project.root, encoding: 'utf8' }).trim();

beforeAll(() => {
  project = userProject({
    'package.json': JSON.stringify({ type: 'module', scripts: { generate: 'wiregen generate --spec server.yaml --out src/generated' } }),
    'server.yaml': SERVER,
    'agent.yaml': AGENT,
  });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'the spec');
});
afterAll(() => project?.dispose());

/** `<class> <RULE> <where>: <message>`, as the text output lays a finding out. */
const line = (cls: string, rule: string, where: string, message: string) => `  ${cls.padEnd(15)} ${rule.padEnd(28)} ${where}: ${message}`;

describe('wiregen diff in a project of its own', () => {
  it('--against HEAD with nothing changed: the spec its generate script names, exit 0', async () => {
    expect(await project.cli(['diff', '--against', 'HEAD'])).toEqual({
      code: 0,
      out: ['server.yaml@HEAD → server.yaml: 0 wire-breaking, 0 source-breaking, 0 compatible'],
      err: [],
    });
  });

  it('--against HEAD: what changed for the clients of a server, each located (the old file for what was removed); exit 100', async () => {
    project.write('server.yaml', CHANGED);
    try {
      const now = (needle: string, after = '') => `server.yaml:${position(CHANGED, needle, after)}`;
      const was = (needle: string, after = '') => `server.yaml@HEAD:${position(SERVER, needle, after)}`;
      expect(await project.cli(['diff', '--against', 'HEAD'])).toEqual({
        code: 100,
        err: [],
        out: [
          'server.yaml@HEAD → server.yaml: 9 wire-breaking, 0 source-breaking, 4 compatible',
          line('wire-breaking', 'SERVER_SAME_CHOICE', `${now('result')} /unknownTool`, 'unknownTool "(default)" → "result"'),
          // What clients send: a new required argument, a limit where there was none.
          line(
            'wire-breaking',
            'PROPERTY_ADDED_REQUIRED',
            `${now('{ type: string }', 'due:')} /tools/0/inputSchema/properties/due`,
            'tool add input.due added, required',
          ),
          line(
            'wire-breaking',
            'CONSTRAINT_SAME',
            `${now('{ type: string, maxLength')} /tools/0/inputSchema/properties/title`,
            'tool add input.title maxLength (none) → 80',
          ),
          // What clients receive: a property that may now be missing.
          line(
            'wire-breaking',
            'PROPERTY_SAME_REQUIRED',
            `${now('{ type: string }', 'created:')} /tools/0/outputSchema/properties/created`,
            'tool add output.created became optional',
          ),
          line(
            'wire-breaking',
            'PROMPT_ARGUMENT_ADDED_REQUIRED',
            `${now('{ name: style')} /prompts/0/arguments/1`,
            'prompt summarise argument style added, required',
          ),
          line(
            'wire-breaking',
            'CAPABILITY_NO_DELETE',
            `${was('{}, prompts')} /capabilities/handshake/resources`,
            'capabilities.handshake.resources removed',
          ),
          line(
            'wire-breaking',
            'CAPABILITY_NO_DELETE',
            `${was('{}, prompts', 'stateless')} /capabilities/stateless/resources`,
            'capabilities.stateless.resources removed',
          ),
          line('wire-breaking', 'TOOL_NO_DELETE', `${was('name: purge')} /tools/1`, 'tool purge removed'),
          line('wire-breaking', 'RESOURCE_NO_DELETE', `${was('{ uri:')} /resources/0`, 'resource notes://all removed'),
          line('compatible', 'CAPABILITY_ADDED', `${now('{}', 'logging: ')} /capabilities/stateless/logging`, 'capabilities.stateless.logging added'),
          // A client may send one value more: nothing it sent before is refused.
          line(
            'compatible',
            'ENUM_VALUE_ADDED',
            `${now('{ enum')} /tools/0/inputSchema/properties/tag`,
            'tool add input.tag enum value "misc" added',
          ),
          line('compatible', 'TOOL_ADDED', `${now('name: search')} /tools/1`, 'tool search added'),
          line(
            'compatible',
            'PROMPT_ARGUMENT_SAME_REQUIRED',
            `${now('{ name: topic')} /prompts/0/arguments/0`,
            'prompt summarise argument topic became optional',
          ),
        ],
      });
    } finally {
      project.write('server.yaml', SERVER);
    }
  });

  it('an agent spec named on the command line: interfaces, capabilities, modes, skills, security', async () => {
    project.write('agent.yaml', AGENT_CHANGED);
    try {
      const now = (needle: string, after = '') => `agent.yaml:${position(AGENT_CHANGED, needle, after)}`;
      const was = (needle: string, after = '') => `agent.yaml@HEAD:${position(AGENT, needle, after)}`;
      expect(await project.cli(['diff', '--against', 'HEAD', 'agent.yaml'])).toEqual({
        code: 100,
        err: [],
        out: [
          'agent.yaml@HEAD → agent.yaml: 4 wire-breaking, 0 source-breaking, 2 compatible',
          line(
            'wire-breaking',
            'SECURITY_ADDED_REQUIRED',
            `${now('[{ schemes')} /card/securityRequirements`,
            'requests now need credentials: {"schemes":{"bearer":{}}}',
          ),
          line(
            'wire-breaking',
            'INTERFACE_NO_DELETE',
            `${was('{ url: "http://127.0.0.1:41241", protocolBinding: HTTP+JSON')} /card/supportedInterfaces/1`,
            'interface HTTP+JSON removed',
          ),
          line(
            'wire-breaking',
            'CAPABILITY_NO_DELETE',
            `${was('true', 'streaming:')} /card/capabilities/streaming`,
            'capabilities.streaming turned off',
          ),
          line('wire-breaking', 'SKILL_NO_DELETE', `${was('{ id: detect')} /card/skills/1`, 'skill detect removed'),
          line(
            'compatible',
            'CAPABILITY_ADDED',
            `${now('true', 'pushNotifications:')} /card/capabilities/pushNotifications`,
            'capabilities.pushNotifications turned on',
          ),
          line('compatible', 'MODE_ADDED', `${now('[text/plain, text/html]')} /card/defaultInputModes`, 'defaultInputModes: text/html added'),
        ],
      });
    } finally {
      project.write('agent.yaml', AGENT);
    }
  });

  it('two spec files, compatible changes only (an argument made optional, a tool added): exit 0', async () => {
    const relaxed = SERVER.replace('required: [title]', 'required: []').replace(
      '\nresources:',
      '\n  - { name: list, inputSchema: { type: object } }\nresources:',
    );
    project.write('next.yaml', relaxed);
    const { code, out } = await project.cli(['diff', 'server.yaml', 'next.yaml', '--json']);
    expect(code).toBe(0);
    const doc = JSON.parse(out.join('\n'));
    expect(doc.breaking).toBe(false);
    expect(doc.comparisons[0].findings.map((f: { rule: string; subject: string }) => `${f.rule} ${f.subject}`)).toEqual([
      'PROPERTY_SAME_REQUIRED tool add input.title',
      'TOOL_ADDED tool list',
    ]);
  });

  it('a name required without a property schema of its own is a change of its own', async () => {
    // JSON Schema lets `required` ask for a member `properties` does not describe: clients must now send it.
    project.write('c.yaml', SERVER.replace('required: [title]', 'required: [title, force]'));
    const { code, out } = await project.cli(['diff', 'server.yaml', 'c.yaml', '--json']);
    expect(code).toBe(100);
    expect(
      JSON.parse(out.join('\n')).comparisons[0].findings.map(
        (f: { class: string; rule: string; subject: string; pointer: string }) => `${f.class} ${f.rule} ${f.subject}`,
      ),
    ).toEqual(['wire-breaking PROPERTY_SAME_REQUIRED tool add input.force']);
  });

  it('the same change is classed by the way its values travel: an enum value added, a property removed', async () => {
    const withStatus = (values: string) =>
      SERVER.replace('created: { type: string } }', `created: { type: string }, status: { enum: [${values}] } }`);
    project.write('a.yaml', withStatus('open, done'));
    // One more status the server may send (breaks clients), one argument fewer it reads (a client that sends
    // it has it ignored: breaks it too), an argument made optional (breaks none).
    project.write(
      'b.yaml',
      withStatus('open, done, archived').replace(', tag: { enum: [work, home] }', '').replace('required: [title]', 'required: []'),
    );
    const { code, out } = await project.cli(['diff', 'a.yaml', 'b.yaml', '--json']);
    expect(code).toBe(100);
    expect(
      JSON.parse(out.join('\n')).comparisons[0].findings.map(
        (f: { class: string; rule: string; subject: string }) => `${f.class} ${f.rule} ${f.subject}`,
      ),
    ).toEqual([
      'wire-breaking PROPERTY_NO_DELETE tool add input.tag',
      'wire-breaking ENUM_VALUE_ADDED tool add output.status',
      'compatible PROPERTY_SAME_REQUIRED tool add input.title',
    ]);
  });

  it('an argument renamed and a tool removed: one finding each, saying what breaks (our example)', async () => {
    const before = `name: notes
main: ./src/server.ts
serverInfo: { name: notes, version: 1.0.0 }
tools:
  - name: get
    inputSchema:
      type: object
      properties: { id: { type: string, description: The note. } }
      required: [id]
  - name: summarize
    inputSchema: { type: object }
`;
    const after = before
      .replace('properties: { id: { type: string, description: The note. } }', 'properties: { noteId: { type: string, description: The note. } }')
      .replace('required: [id]', 'required: [noteId]')
      .replace('  - name: summarize\n    inputSchema: { type: object }\n', '');
    project.write('notes-1.yaml', before);
    project.write('notes-2.yaml', after);
    expect(await project.cli(['diff', 'notes-1.yaml', 'notes-2.yaml'])).toEqual({
      code: 100,
      err: [],
      out: [
        'notes-1.yaml → notes-2.yaml: 2 wire-breaking, 0 source-breaking, 0 compatible',
        line('wire-breaking', 'TOOL_NO_DELETE', `notes-1.yaml:${position(before, 'name: summarize')} /tools/1`, 'tool summarize removed'),
        line(
          'wire-breaking',
          'PROPERTY_RENAMED',
          `notes-2.yaml:${position(after, '{ type: string')} /tools/0/inputSchema/properties/noteId`,
          'tool get input: renamed `id` → `noteId`: clients that send `id` are refused (`noteId` is required)',
        ),
      ],
    });
  });

  it('what needs the wiregen repository says so in one line, exit 2', async () => {
    expect(await project.cli(['diff', 'mcp-2025-11-25', 'mcp-2026-07-28'])).toEqual({
      code: 2,
      out: [],
      err: [
        "wiregen diff: mcp-2025-11-25 mcp-2026-07-28: comparing two pins needs the wiregen repository's schemas/pins.json; here, compare your spec with a commit (wiregen diff --against HEAD) or two spec files",
      ],
    });
    expect(await project.cli(['pin', 'mcp-2026-07-28', '--from', 'x'])).toEqual({
      code: 2,
      out: [],
      err: [
        "wiregen pin: pins a protocol revision into the wiregen repository's schemas/ (no schemas/pins.json here); a project uses the published packages instead: npm install @wiregen/<protocol>-<revision>, e.g. @wiregen/mcp-2026-07-28",
      ],
    });
    expect(await project.cli(['diff', '--against', 'HEAD', 'missing.yaml'])).toEqual({
      code: 2,
      out: [],
      err: ['missing.yaml: no such spec here or at HEAD'],
    });
  });

  it('a project with no spec, and one outside git', async () => {
    const bare = userProject({});
    try {
      expect((await bare.cli(['diff', '--against', 'HEAD'])).err).toEqual([
        "wiregen diff: no schemas/pins.json (the wiregen repository's pins) and no spec here (server.yaml, server.yml, server.json, agent.yaml, …): name yours, e.g. wiregen diff --against HEAD server.yaml",
      ]);
      bare.write('server.yaml', SERVER);
      const outside = await bare.cli(['diff', '--against', 'HEAD']);
      expect(outside.code).toBe(2);
      expect(outside.err).toEqual([`${bare.root}: is not in a git work tree, so --against has nothing to compare with`]);
    } finally {
      bare.dispose();
    }
  });
});
