/**
 * `wiregen diff` of a spec on this repository's own history: every consecutive pair of versions of each of its
 * specs (schemas/samples/*.yaml, schemas/samples/a2a/*.yaml, followed through their renames from
 * schemas/fixtures/) is compared. None may crash, and every finding has a documented rule, a class and a
 * pointer. For three commits the findings are exact, as read off each commit's `git show` of the file:
 * - 0eaf738 added seven tools to the conformance spec, and changed nothing else in it;
 * - 0b62b29 set `thrownErrors: mask` in the recorded server's spec (a thrown error's message is masked);
 * - 9d5fe0c rewrote the deployer's card with YAML anchors (for its extended card): the same card.
 * The whole walk reads the history with git; a shallow clone has too little of it, and the test says so.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLASSES, type Finding, RULES } from '../../generator/evolve/findings.ts';
import { diffSpecs, type SpecVersion } from '../../generator/evolve/spec/diff.ts';
import { isObject } from '../../generator/load/schema.ts';
import { ROOT } from '../helpers/project.ts';

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
const inGit = (() => {
  try {
    return git('rev-parse', '--is-shallow-repository').trim();
  } catch {
    return 'no git';
  }
})();
const why = inGit === 'false' ? '' : inGit === 'true' ? 'a shallow clone has not the specs’ history' : 'not a git work tree';

/** Each spec's versions, newest first: `[commit, path at that commit]`. */
function versions(file: string): [string, string][] {
  const out = git('log', '--follow', '--format=%H', '--name-only', '--', file).split('\n').filter(Boolean);
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < out.length; i += 2) pairs.push([out[i]!, out[i + 1]!]);
  return pairs;
}

function version(commit: string, path: string): SpecVersion {
  const data = parse(git('show', `${commit}:${path}`));
  if (!isObject(data)) throw new Error(`${commit}:${path} is not a mapping`);
  return { file: `${path}@${commit.slice(0, 7)}`, data, locate: () => undefined };
}

/** The findings of commit `commit` (short) for `file`, against the version before it. */
function at(all: Map<string, Finding[]>, commit: string, file: string): string[] {
  const key = [...all.keys()].find((k) => k.startsWith(`${commit} `) && k.endsWith(` ${file}`));
  expect(key, `${commit} changed ${file}`).toBeDefined();
  return all.get(key!)!.map((f) => `${f.class} ${f.rule} ${f.pointer}: ${f.message}`);
}

describe.skipIf(why !== '')(`wiregen diff on this repository's specs, commit by commit${why ? ` (skipped: ${why})` : ''}`, () => {
  const all = new Map<string, Finding[]>();
  const files = git('ls-files', 'schemas/samples/*.yaml', 'schemas/samples/a2a/*.yaml').split('\n').filter(Boolean);

  it('no pair crashes, and every finding has a rule, a class and a pointer', () => {
    for (const file of files) {
      const list = versions(file);
      expect(list.length, file).toBeGreaterThan(0);
      // A spec added in the newest commit that touched it has no pair yet.
      for (let i = 0; i + 1 < list.length; i++) {
        const [[newer, pathB], [older, pathA]] = [list[i]!, list[i + 1]!];
        const findings = diffSpecs(version(older, pathA), version(newer, pathB));
        for (const f of findings) {
          expect(RULES[f.rule], `${newer} ${file}: ${f.rule}`).toBeTypeOf('string');
          expect(CLASSES).toContain(f.class);
          expect(f.pointer, `${newer} ${file}: ${f.message}`).toBeTypeOf('string');
        }
        all.set(`${newer.slice(0, 7)} ${file}`, findings);
      }
    }
    expect(all.size).toBeGreaterThan(20);
  });

  it('0eaf738: seven tools added to the conformance spec', () => {
    const added = ['confirm_delete', 'failing_job', 'greet', 'multi_input', 'protocol_error_job', 'slow_compute', 'test_tool_with_task'];
    const found = at(all, '0eaf738', 'schemas/samples/conformance.yaml');
    expect(found.map((f) => f.replace(/ \/tools\/\d+:/, ':')).sort()).toEqual(added.map((t) => `compatible TOOL_ADDED: tool ${t} added`).sort());
  });

  it('0b62b29: thrownErrors mask, a wire choice of the recorded server', () => {
    expect(at(all, '0b62b29', 'schemas/samples/recorded-server.yaml')).toEqual([
      'wire-breaking SERVER_SAME_CHOICE /thrownErrors: thrownErrors "(default)" → "mask"',
    ]);
  });

  it('9d5fe0c: the deployer card written with YAML anchors is the same card', () => {
    // Its extended card (`extendedCard`, new in that commit) is not compared.
    expect(at(all, '9d5fe0c', 'schemas/samples/a2a/deployer.yaml')).toEqual([]);
  });
});
