/**
 * @module validate — `wiregen validate <protocol>@<revision> <Def> <file.json>…`: checks JSON files
 * against one definition with the generated validators (generated/ in the wiregen repository, else the installed
 * `@wiregen/<protocol>-<revision>` package), printing each error's JSON pointer.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { byDistance } from './commands/args.ts';
import type { Context } from './context.ts';
import { EXIT_BAD_INPUT, EXIT_DIFFERENT, EXIT_OK, fail, formatDiagnostic, InputError } from './errors.ts';
import { readJson } from './load/json.ts';
import { describeError } from './load/validate-input.ts';

interface StandaloneValidator {
  (data: unknown): boolean;
  errors?: import('ajv').ErrorObject[] | null;
}

/** Pin ids that have a generated package in this repository's generated/. */
function generatedPins(ctx: Context): string[] {
  const dir = ctx.options.generatedDir;
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'validators.js')))
    .map((e) => e.name)
    .sort();
}

/** `mcp@2026-07-28` → `mcp-2026-07-28` (`mcp@ext-tasks` → `mcp-ext-tasks`). */
export function pinIdOf(spec: string): string | undefined {
  const m = /^(mcp|a2a)@([0-9A-Za-z][0-9A-Za-z.-]*)$/.exec(spec);
  return m ? `${m[1]}-${m[2]}` : undefined;
}

/** `mcp-2026-07-28` → `mcp@2026-07-28`. */
const specOf = (id: string) => id.replace(/^(mcp|a2a)-/, '$1@');

/** The package of a pin: what a user's project installs (package.json `name` of generated/<id>/). */
const packageOf = (id: string) => `@wiregen/${id}`;

/** Every revision wiregen publishes a package for (@wiregen/revisions), as pin ids. */
async function publishedPins(): Promise<string[]> {
  try {
    const { mcp, a2a } = await import('@wiregen/revisions');
    return [...Object.keys(mcp).map((r) => `mcp-${r}`), ...Object.keys(a2a).map((r) => `a2a-${r}`)];
  } catch {
    return [];
  }
}

/**
 * Where the validators of pin `id` are: generated/<id>/ in the wiregen repository; else its package
 * (`@wiregen/<id>/validators`) as the project at the root resolves it, else as wiregen itself does (the
 * packages it depends on). Undefined when none is installed.
 */
function validatorsFile(ctx: Context, id: string): string | undefined {
  const local = join(ctx.options.generatedDir, id, 'validators.js');
  if (existsSync(local)) return local;
  for (const from of [join(ctx.options.root, 'package.json'), fileURLToPath(import.meta.url)]) {
    try {
      return createRequire(from).resolve(`${packageOf(id)}/validators`);
    } catch {
      // not installed there
    }
  }
  return undefined;
}

export async function validateFiles(ctx: Context, spec: string, def: string, files: readonly string[], out: (line: string) => void): Promise<number> {
  const id = pinIdOf(spec);
  const file = id === undefined ? undefined : validatorsFile(ctx, id);
  if (!id || !file) {
    const known = [...new Set([...generatedPins(ctx), ...(await publishedPins())])].sort();
    if (id && known.includes(id))
      fail({ file: spec, message: `its validators are in ${packageOf(id)}, which is not installed here: npm install ${packageOf(id)}` });
    fail({
      file: spec,
      message: `unknown protocol revision; expected <protocol>@<revision>, one of: ${known.map(specOf).join(', ') || '(none: install a package such as @wiregen/mcp-2026-07-28)'}`,
    });
  }
  const mod = (await import(pathToFileURL(file).href)) as Record<string, StandaloneValidator>;
  const validate = Object.hasOwn(mod, def) ? mod[def] : undefined;
  if (typeof validate !== 'function')
    fail({
      file: spec,
      message: `unknown $def ${JSON.stringify(def)}; did you mean ${byDistance(
        def,
        Object.keys(mod).filter((k) => typeof mod[k] === 'function'),
      )
        .slice(0, 3)
        .join(', ')}?`,
    });
  let code = EXIT_OK;
  for (const file of files) {
    let data: unknown;
    try {
      data = readJson(resolve(ctx.options.root, file), file);
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
