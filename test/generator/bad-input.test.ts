/**
 * Bad input: a one-line error naming the file and the location, exit code 2, and generated/ untouched.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { copyProject, pinIds, runCli, type Project } from '../helpers/project.ts';

let project: Project;
afterEach(() => project?.dispose());

async function failGenerate(edit: (p: Project) => void, args: string[] = []): Promise<string[]> {
  project = copyProject({ generated: true });
  edit(project);
  const before = readFileSync(project.path('generated/mcp-2024-11-05/types.ts'), 'utf8');
  const { code, err, out } = await runCli(['generate', ...args], project.root);
  expect(code).toBe(2);
  expect(out.filter((l) => l.startsWith('wrote'))).toEqual([]);
  expect(readFileSync(project.path('generated/mcp-2024-11-05/types.ts'), 'utf8')).toBe(before);
  expect(readdirSync(project.root).sort()).toEqual(['generated', 'schemas']);
  return err;
}

describe('bad input to generate', () => {
  it('a pinned file whose bytes changed stops everything before it runs', async () => {
    const err = await failGenerate((p) => p.edit('schemas/mcp/2025-06-18/schema.json', '"description"', '"Description"'));
    const recorded = (JSON.parse(project.read('schemas/pins.json')) as { pins: { files: { path: string; sha256: string }[] }[] }).pins
      .flatMap((p) => p.files)
      .find((f) => f.path === 'mcp/2025-06-18/schema.json')!.sha256;
    const actual = createHash('sha256')
      .update(readFileSync(project.path('schemas/mcp/2025-06-18/schema.json')))
      .digest('hex');
    expect(err).toEqual([
      `schemas/mcp/2025-06-18/schema.json: pinned file of mcp-2025-06-18 has changed: sha256 ${actual} but schemas/pins.json records ${recorded}. Restore it, or re-pin it: wiregen pin mcp-2025-06-18 --update --from <source> (docs/bumping-a-schema.md)`,
    ]);
  });

  it('a schema file that is not JSON (pinned anyway) names the file, line and column', async () => {
    const err = await failGenerate((p) => {
      p.edit('schemas/mcp/2024-11-05/schema.json', /("definitions": \{\n)/, '$1    oops,\n');
      p.repin('mcp/2024-11-05/schema.json');
    });
    expect(err).toEqual(['schemas/mcp/2024-11-05/schema.json:4:5: not valid JSON: expected a property name, unexpected "o"']);
  });

  it('a manifest entry naming a missing $def names the manifest line and pointer', async () => {
    const err = await failGenerate((p) => p.edit('schemas/manifest/mcp-2025-03-26.yaml', 'result: ListRootsResult', 'result: ListRootResult'));
    expect(err).toEqual([
      'schemas/manifest/mcp-2025-03-26.yaml:' +
        lineOf(project.read('schemas/manifest/mcp-2025-03-26.yaml'), 'result: ListRootResult') +
        ':13 /methods/roots~1list/result: names $def ListRootResult, which schemas/mcp/2025-03-26/schema.json does not define',
    ]);
  });

  it('a manifest that is not YAML', async () => {
    const err = await failGenerate((p) => p.edit('schemas/manifest/a2a-1.0.yaml', 'service: A2AService', 'service: [A2AService'));
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^schemas\/manifest\/a2a-1\.0\.yaml:10:1: not valid YAML: Flow sequence/);
  });

  it('a manifest field the manifest schema does not know', async () => {
    const err = await failGenerate((p) => p.edit('schemas/manifest/mcp-2026-07-28.yaml', '    cacheable: true\n', '    cachable: true\n'));
    expect(err).toEqual(['schemas/manifest/mcp-2026-07-28.yaml:9:5 /methods/server~1discover: unknown property "cachable"']);
  });

  it('an unknown pin', async () => {
    const err = await failGenerate(() => {}, ['--only', 'mcp-2099-01-01']);
    expect(err).toEqual([`schemas/pins.json: no pin mcp-2099-01-01 (pins: ${pinIds().join(', ')})`]);
  });

  it('a sample tool schema of another JSON Schema draft names the spec line and pointer', async () => {
    // Not one of the two dialects tool schemas may name (2020-12, draft-07).
    const draft2019 = '"https://json-schema.org/draft/2019-09/schema"';
    const err = await failGenerate((p) =>
      p.edit(
        'schemas/samples/golden.yaml',
        '  - name: boom\n    inputSchema: { type: object }',
        `  - name: boom\n    inputSchema: { $schema: ${draft2019}, type: object }`,
      ),
    );
    const text = project.read('schemas/samples/golden.yaml');
    const line = lineOf(text, draft2019);
    const column = text.split('\n')[line - 1]!.indexOf(draft2019) + 1;
    expect(err).toEqual([
      `schemas/samples/golden.yaml:${line}:${column} /tools/1/inputSchema/$schema: tool boom declares $schema "https://json-schema.org/draft/2019-09/schema"; tool schemas are JSON Schema 2020-12 (the default, https://json-schema.org/draft/2020-12/schema) or draft-07 (http://json-schema.org/draft-07/schema#)`,
    ]);
  });

  it('an A2A reference that names no definition', async () => {
    const err = await failGenerate((p) => {
      p.edit('schemas/a2a/1.0/a2a.json', '"$ref": "lf.a2a.v1.Message.jsonschema.json"', '"$ref": "lf.a2a.v1.Mesage.jsonschema.json"');
      p.repin('a2a/1.0/a2a.json');
    });
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(
      /^schemas\/a2a\/1\.0\/a2a\.json \/definitions\/[^:]+\/\$ref: unresolved reference "lf\.a2a\.v1\.Mesage\.jsonschema\.json": no definition is titled after Mesage$/,
    );
  });
});

function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split('\n').length;
}

describe('bad input to validate', () => {
  it('an unknown revision', async () => {
    const { code, err } = await runCli(['validate', 'mcp@2026-07-29', 'Tool', 'x.json']);
    expect(code).toBe(2);
    expect(err).toEqual([
      `mcp@2026-07-29: unknown protocol revision; expected <protocol>@<revision>, one of: ${pinIds()
        .sort()
        .map((id) => id.replace(/^(mcp|a2a)-/, '$1@'))
        .join(', ')}`,
    ]);
  });

  it('an unknown $def', async () => {
    const { code, err } = await runCli(['validate', 'mcp@2026-07-28', 'CallToolReqest', 'x.json']);
    expect(code).toBe(2);
    expect(err).toEqual(['mcp@2026-07-28: unknown $def "CallToolReqest"; did you mean CallToolRequest, CallToolResult, ListToolsRequest?']);
  });
});
