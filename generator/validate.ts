/**
 * @module validate — `wiregen validate <protocol>@<revision> <Def> <file.json>…`: checks JSON files
 * against one definition with the generated (committed) validators, printing each error's JSON pointer.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from './context.ts';
import { EXIT_BAD_INPUT, EXIT_DIFFERENT, EXIT_OK, fail, formatDiagnostic, InputError } from './errors.ts';
import { readJson } from './load/json.ts';
import { describeError } from './load/validate-input.ts';

interface StandaloneValidator {
  (data: unknown): boolean;
  errors?: import('ajv').ErrorObject[] | null;
}

/** Pin ids that have a generated package. */
function generatedPins(ctx: Context): string[] {
  const dir = ctx.options.generatedDir;
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'validators.js')))
    .map((e) => e.name)
    .sort();
}

/** `mcp@2026-07-28` → `mcp-2026-07-28`. */
export function pinIdOf(spec: string): string | undefined {
  const m = /^(mcp|a2a)@([0-9][0-9A-Za-z.-]*)$/.exec(spec);
  return m ? `${m[1]}-${m[2]}` : undefined;
}

/** Closest names by edit distance, for "did you mean". */
function closest(name: string, candidates: readonly string[], n = 3): string[] {
  const dist = (a: string, b: string) => {
    const d = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let prev = d[0]!;
      d[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const tmp = d[j]!;
        d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
        prev = tmp;
      }
    }
    return d[b.length]!;
  };
  return [...candidates].sort((a, b) => dist(name, a) - dist(name, b) || (a < b ? -1 : 1)).slice(0, n);
}

export async function validateFiles(ctx: Context, spec: string, def: string, files: readonly string[], out: (line: string) => void): Promise<number> {
  const id = pinIdOf(spec);
  const available = generatedPins(ctx);
  if (!id || !available.includes(id)) {
    const known = available.map((p) => p.replace(/^(mcp|a2a)-/, '$1@')).join(', ');
    fail({
      file: spec,
      message: `unknown protocol revision; expected <protocol>@<revision>, one of: ${known || '(none generated yet: run npm run generate)'}`,
    });
  }
  const mod = (await import(pathToFileURL(join(ctx.options.generatedDir, id, 'validators.js')).href)) as Record<string, StandaloneValidator>;
  const validate = Object.hasOwn(mod, def) ? mod[def] : undefined;
  if (typeof validate !== 'function')
    fail({ file: spec, message: `unknown $def ${JSON.stringify(def)}; did you mean ${closest(def, Object.keys(mod)).join(', ')}?` });
  let code = EXIT_OK;
  for (const file of files) {
    let data: unknown;
    try {
      data = readJson(file);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      err.diagnostics.forEach((d) => out(formatDiagnostic(d)));
      code = EXIT_BAD_INPUT;
      continue;
    }
    if (validate(data)) {
      out(`${file}: valid ${def}`);
      continue;
    }
    if (code === EXIT_OK) code = EXIT_DIFFERENT;
    for (const e of validate.errors ?? []) out(formatDiagnostic({ file, pointer: e.instancePath, message: describeError(e) }));
  }
  return code;
}
