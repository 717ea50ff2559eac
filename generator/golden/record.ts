/**
 * @module golden/record — `wiregen golden record`: captures a new case. The request (one JSON-RPC request;
 * written compact on one line when given on several) is played against the server as `check` would play it,
 * and the request file, the response file and the manifest entry are written together. Nothing that exists
 * is overwritten: a case already listed, or files already there, are bad input. The answer must be checked
 * by hand before it is committed: a recording is only as true as the server that gave it.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { EXIT_BAD_INPUT, InputError } from '../errors.ts';
import { type CheckOptions, checkCorpus, type CaseOutcome } from './check.ts';
import { type CorpusCase, DEFAULT_HANDSHAKE, type Era, eraNamed, loadCorpus, requestPath, responsePath } from './corpus.ts';

export interface RecordCase {
  /** `<era>/<case>`. */
  readonly name: string;
  /** The request, as JSON text. */
  readonly request: string;
  readonly handlers?: string;
  readonly notifications?: boolean;
  /** Default: the name's first segment. */
  readonly era?: Era;
  /** Legacy: the preamble's revision (default: the manifest's rule). */
  readonly handshake?: string;
  /** Written into the entry. Default `project`. */
  readonly provenance?: string;
}

/** Records one case into `dir` (creating the manifest when there is none). */
export async function recordCase(dir: string, spec: RecordCase, options: CheckOptions & { readonly handshake?: string }): Promise<CaseOutcome> {
  const cwd = options.cwd ?? process.cwd();
  const manifestPath = join(dir, 'manifest.json');
  const shown = (p: string) => relative(cwd, p) || p;
  const bad = (message: string, file = manifestPath) => new InputError([{ file: shown(file), message }], EXIT_BAD_INPUT);
  let parsed: unknown;
  try {
    parsed = JSON.parse(spec.request);
  } catch (err) {
    throw bad(`the request is not JSON: ${(err as Error).message}`, requestPath(dir, spec.name));
  }
  const p = parsed as { method?: unknown; id?: unknown };
  if (typeof parsed !== 'object' || parsed === null || typeof p.method !== 'string' || p.id === undefined)
    throw bad('the request is not a JSON-RPC request (it needs a method and an id)', requestPath(dir, spec.name));
  const era = eraNamed(spec.era ?? spec.name.split('/')[0]);
  if (era === undefined) throw bad(`case ${spec.name}: give --era handshake|stateless, or name it legacy/… or modern/… as the reference corpus does`);
  if (!existsSync(manifestPath)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(manifestPath, `${JSON.stringify({ cases: [] }, null, 2)}\n`, { flag: 'wx' });
  }
  const before = loadCorpus(dir, { ...(options.handshake ? { handshake: options.handshake } : {}), cwd });
  if (before.cases.some((c) => c.name === spec.name)) throw bad(`case ${spec.name} is already listed; remove it first to record it again`);
  for (const file of [requestPath(dir, spec.name), responsePath(dir, spec.name)])
    if (existsSync(file)) throw bad(`${shown(file)} already exists`, file);
  const line = spec.request.includes('\n') ? JSON.stringify(parsed) : spec.request.trim();
  const entry: Record<string, unknown> = {
    name: spec.name,
    handlers: spec.handlers ?? 'base',
    notifications: spec.notifications ?? false,
    ...(spec.era !== undefined ? { era } : {}),
    ...(spec.handshake !== undefined ? { handshake: spec.handshake } : {}),
    provenance: spec.provenance ?? 'project',
  };
  mkdirSync(dirname(requestPath(dir, spec.name)), { recursive: true });
  writeFileSync(requestPath(dir, spec.name), `${line}\n`, { flag: 'wx' });
  const fallback = typeof before.raw['handshake'] === 'string' ? before.raw['handshake'] : (options.handshake ?? DEFAULT_HANDSHAKE);
  const c: CorpusCase = {
    name: spec.name,
    era,
    handlers: spec.handlers ?? 'base',
    notifications: spec.notifications ?? false,
    handshake: era === 'stateless' || p.method === 'initialize' ? null : (spec.handshake ?? fallback),
    entry,
  };
  const [outcome] = await checkCorpus(before, { ...options, accept: true }, [c]);
  if (outcome!.status !== 'accepted') {
    rmSync(requestPath(dir, spec.name), { force: true });
    return outcome!;
  }
  const raw = { ...before.raw, cases: [...(before.raw['cases'] as unknown[]), entry] };
  writeFileSync(manifestPath, `${JSON.stringify(raw, null, 2)}\n`);
  return outcome!;
}
