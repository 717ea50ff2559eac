/**
 * @module acts/format/load — reading ACTS files (generator/acts/suites/acts-specification.md §2, §12.1): YAML
 * (or JSON, which is YAML), a master file's `include` list followed relative to it, every document checked
 * against the format (format/validate.ts) before any test runs. A problem is one line,
 * `file:line:col: message`, exit 2.
 */
import { dirname, relative, resolve } from 'node:path';
import { InputError } from '../../errors.ts';
import { readYaml } from '../../load/yaml.ts';
import type { Suite, Test } from './model.ts';
import { checkDocument, kindOf } from './validate.ts';

/** Reads `path` and, for a master file, each file it includes (once each); returns their suites in order. */
export function loadActs(path: string, cwd: string = process.cwd(), seen: Set<string> = new Set()): Suite[] {
  const abs = resolve(cwd, path);
  if (seen.has(abs)) return [];
  seen.add(abs);
  const file = relative(cwd, abs) || abs;
  const { data, locate } = readYaml(abs, file);
  const problems = checkDocument(data);
  if (problems.length > 0)
    throw new InputError(
      problems.map((p) => {
        const at = locate(p.pointer);
        return at ? { file, line: at.line, column: at.column, message: p.message } : { file, pointer: p.pointer, message: p.message };
      }),
    );
  const doc = data as Record<string, unknown>;
  const variables = (doc['variables'] ?? {}) as Record<string, string>;
  const suites: Suite[] = [];
  for (const included of (doc['include'] ?? []) as string[]) {
    // An included file's suites see the master's variables under their own (§2: document-level defaults).
    for (const s of loadActs(resolve(dirname(abs), included), cwd, seen)) suites.push({ ...s, variables: { ...variables, ...s.variables } });
  }
  for (const s of (doc['suites'] ?? []) as Record<string, unknown>[])
    suites.push({
      id: s['id'] as string,
      name: s['name'] as string,
      tests: (s['tests'] as Record<string, unknown>[]).map(
        (t) => ({ ...t, steps: (t['steps'] as Record<string, unknown>[]).map((step) => ({ ...step, kind: kindOf(step) })) }) as unknown as Test,
      ),
      file,
      variables,
      specVersion: String(doc['spec_version']),
      actsVersion: String(doc['acts_version']),
    });
  return suites;
}
