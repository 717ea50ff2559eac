/**
 * @module evolve/spec/since — what changed in a spec since its module was generated, for `wiregen generate
 * --spec … --out … --check` to print beside the stale files: the findings `wiregen diff` reports
 * (evolve/spec/diff.ts) between the spec the module holds and the spec now.
 *
 * Where the older spec comes from: the module already holds it as data. A server's index.ts has
 * `export const spec = {…} as const satisfies ServerSpec;` (the spec without `main`, emit/spec-module.ts) and an
 * agent's `export const card = {…} as const satisfies AgentCard;`, both JSON.stringify's output formatted by
 * prettier, which only unquotes keys and adds trailing commas. Reading that literal back needs no new file in
 * every generated module (a spec.json would also need the header every file --out holds must start with), and
 * it is what the module serves, so it cannot disagree with it. The literal is evaluated as a JavaScript
 * expression only when, strings aside, it holds nothing but object and array punctuation, names and numbers:
 * no call, no operator but a sign. When index.ts is missing or written another way (an older or newer
 * template), there is no summary, and the stale file list says enough.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { isObject, type JsonObject } from '../../load/schema.ts';
import type { LoadedSpec } from '../../spec/load.ts';
import { countsLine, formatText } from '../report.ts';
import { diffSpecs } from './diff.ts';

/** The declaration of the spec's data in a module's index.ts, by kind (templates/server.ts.hbs, agent.ts.hbs). */
const DECLARATION = {
  server: /^export const spec = (\{[\s\S]*?\n\}) as const satisfies ServerSpec;$/m,
  agent: /^export const card = (\{[\s\S]*?\n\}) as const satisfies AgentCard;$/m,
} as const;

/** The object literal `text`, when it is one (strings aside: braces, brackets, names, numbers, signs). */
function literal(text: string): JsonObject | undefined {
  const bare = text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
  if (!/^[\s{}[\]:,\w.$+"-]*$/.test(bare)) return undefined;
  try {
    const value: unknown = runInNewContext(`(${text})`, Object.create(null), { timeout: 1000 });
    const json: unknown = JSON.parse(JSON.stringify(value));
    return isObject(json as never) ? (json as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** The spec the module in `dir` was generated from, as the comparison reads a spec; undefined when not found. */
export function generatedSpec(dir: string, kind: LoadedSpec['kind']): JsonObject | undefined {
  const index = join(dir, 'index.ts');
  if (!existsSync(index)) return undefined;
  const m = DECLARATION[kind].exec(readFileSync(index, 'utf8'));
  const data = m ? literal(m[1]!) : undefined;
  return data && (kind === 'server' ? data : { card: data });
}

/**
 * `since <shown> was generated: 2 wire-breaking, …` and a line per finding, from the module in `dir` (shown as
 * `shown`) to the spec `loaded`; no lines when the module's spec cannot be read.
 */
export function sinceGenerated(dir: string, shown: string, loaded: LoadedSpec): string[] {
  const was = generatedSpec(dir, loaded.kind);
  if (!was) return [];
  const { main: _, ...server } = loaded.spec;
  const now: JsonObject = loaded.kind === 'server' ? server : { card: loaded.spec['card'] ?? {} };
  const findings = diffSpecs(
    { file: `${loaded.file}@${shown}`, data: was, locate: () => undefined },
    { file: loaded.file, data: now, locate: loaded.locate },
  );
  const [, ...lines] = formatText([{ from: shown, to: loaded.file, findings }]);
  return [`since ${shown} was generated: ${countsLine(findings)}`, ...lines];
}
