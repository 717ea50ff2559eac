/**
 * @module golden/corpus — a wire corpus on disk, as `wiregen golden` reads it: `manifest.json` listing the
 * cases, and per case `<name>.request.json` (one JSON-RPC request on one line, exactly as sent) and
 * `<name>.response.json` (the expected response). The manifest is the reference Golden corpus's
 * (`{cases: [{name, handlers, notifications}]}`, test/golden/reference/) with optional fields of ours: a
 * `preamble`, and per case `era`, `handshake` and `provenance`. Every problem is one line naming the file and
 * the JSON pointer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EXIT_BAD_INPUT, type Diagnostic, InputError, pointer } from '../errors.ts';
import { readJson } from '../load/json.ts';

/** The two protocol eras: `handshake` (initialize first; 2024-11-05 … 2025-11-25) and `stateless` (2026-07-28). */
export type Era = 'handshake' | 'stateless';

/**
 * An era by name. The reference Golden corpus calls them `legacy` and `modern` (its case folders and names,
 * test/golden/reference/); this is the one place those names are read as ours.
 */
const ERA_NAMES: Readonly<Record<string, Era>> = { handshake: 'handshake', stateless: 'stateless', legacy: 'handshake', modern: 'stateless' };

/** The era `value` names (ours, or the reference corpus's name for it), or undefined. */
export function eraNamed(value: unknown): Era | undefined {
  return typeof value === 'string' && Object.hasOwn(ERA_NAMES, value) ? ERA_NAMES[value] : undefined;
}

/** What a case whose era is missing or unknown is told. */
export const ERA_HINT = 'say its era ("handshake" or "stateless"), or name it legacy/… or modern/… as the reference corpus does';

/**
 * The handshake revision a handshake-era case's preamble asks for when neither the case, the manifest nor
 * `--handshake` names one: 2025-06-18, the revision the reference Golden corpus was recorded under
 * (test/golden/reference/PROVENANCE.md).
 */
export const DEFAULT_HANDSHAKE = '2025-06-18';

/** The preamble of a handshake-era case: an initialize (`$REVISION` stands for the revision) and notifications/initialized. */
export interface Preamble {
  readonly initialize: string;
  readonly initialized: string;
}

/** The preamble when the manifest has none: what the reference corpus's client sends. */
export const DEFAULT_PREAMBLE: Preamble = {
  initialize:
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"$REVISION","capabilities":{},"clientInfo":{"name":"golden-client","version":"1.0"}}}',
  initialized: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
};

export interface CorpusCase {
  /** `<era>/<case>` (or any path): the files are `<dir>/<name>.request.json` and `.response.json`. */
  readonly name: string;
  /** `handshake` (initialize first) or `stateless` (2026-07-28: no preamble). Default: the era the name's first segment names. */
  readonly era: Era;
  /** The server's handler set; mapped to server arguments by `--handlers <set>=<args>`. Default `base` (no arguments). */
  readonly handlers: string;
  /** The case needs a server that can deliver change notifications (`--notifications <args>`). Default false. */
  readonly notifications: boolean;
  /** Handshake era: the revision the preamble negotiates, or null when the case's own request is the first message (an initialize). */
  readonly handshake: string | null;
  /** Who wrote the expected response: `reference` (another implementation's recording) or `project`. */
  readonly provenance?: string;
  /** The manifest entry as written (other fields are the corpus's own). */
  readonly entry: Readonly<Record<string, unknown>>;
}

export interface Corpus {
  readonly dir: string;
  /** The manifest's path as shown in messages. */
  readonly shown: string;
  readonly preamble: Preamble;
  readonly cases: readonly CorpusCase[];
  /** The manifest as written (record adds entries to it). */
  readonly raw: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface LoadOptions {
  /** The revision a handshake-era case's preamble negotiates when the case and the manifest name none. Default {@link DEFAULT_HANDSHAKE}. */
  readonly handshake?: string;
  /** Where paths are shown relative to. Default: the working directory. */
  readonly cwd?: string;
}

/** Reads and checks `<dir>/manifest.json`. */
export function loadCorpus(dir: string, options: LoadOptions = {}): Corpus {
  const file = join(dir, 'manifest.json');
  const shown = relative(options.cwd ?? process.cwd(), file) || file;
  if (!existsSync(file)) throw new InputError([{ file: shown, message: 'no manifest.json in the corpus directory' }]);
  const raw = readJson(file, shown);
  const problems: Diagnostic[] = [];
  const problem = (at: string, message: string) => problems.push({ file: shown, pointer: at, message });
  if (!isObject(raw) || !Array.isArray(raw['cases']))
    throw new InputError([{ file: shown, pointer: '/cases', message: 'the manifest needs a "cases" array' }]);
  const preamble = readPreamble(raw['preamble'], problem);
  const fallback = typeof raw['handshake'] === 'string' ? raw['handshake'] : (options.handshake ?? DEFAULT_HANDSHAKE);
  const names = new Set<string>();
  const cases: CorpusCase[] = [];
  raw['cases'].forEach((entry: unknown, i: number) => {
    const at = pointer('cases', i);
    if (!isObject(entry) || typeof entry['name'] !== 'string' || entry['name'] === '') return problem(at, 'a case needs a "name" string');
    const name = entry['name'];
    if (names.has(name)) return problem(`${at}/name`, `case ${name} is listed twice`);
    names.add(name);
    const era = eraNamed(entry['era'] ?? name.split('/')[0]);
    if (era === undefined) return problem(`${at}/era`, `case ${name}: ${ERA_HINT}`);
    const handlers = entry['handlers'] ?? 'base';
    if (typeof handlers !== 'string') return problem(`${at}/handlers`, 'must be a string');
    const notifications = entry['notifications'] ?? false;
    if (typeof notifications !== 'boolean') return problem(`${at}/notifications`, 'must be true or false');
    const declared = entry['handshake'];
    if (declared !== undefined && declared !== null && typeof declared !== 'string') return problem(`${at}/handshake`, 'must be a revision or null');
    if (entry['provenance'] !== undefined && typeof entry['provenance'] !== 'string') return problem(`${at}/provenance`, 'must be a string');
    const request = requestPath(dir, name);
    if (!existsSync(request)) return problem(`${at}/name`, `case ${name}: ${relative(options.cwd ?? process.cwd(), request)} does not exist`);
    const handshake = era === 'stateless' ? null : declared === undefined ? (opensConnection(request) ? null : fallback) : declared;
    cases.push({
      name,
      era,
      handlers,
      notifications,
      handshake,
      ...(typeof entry['provenance'] === 'string' ? { provenance: entry['provenance'] } : {}),
      entry,
    });
  });
  if (problems.length) throw new InputError(problems, EXIT_BAD_INPUT);
  return { dir, shown, preamble, cases, raw };
}

function readPreamble(value: unknown, problem: (at: string, message: string) => void): Preamble {
  if (value === undefined) return DEFAULT_PREAMBLE;
  if (!isObject(value) || typeof value['initialize'] !== 'string' || typeof value['initialized'] !== 'string') {
    problem('/preamble', 'needs "initialize" and "initialized", each one JSON-RPC message as a string');
    return DEFAULT_PREAMBLE;
  }
  if (!value['initialize'].includes('$REVISION')) problem('/preamble/initialize', 'must hold $REVISION where the handshake revision goes');
  return { initialize: value['initialize'], initialized: value['initialized'] };
}

export const requestPath = (dir: string, name: string) => join(dir, `${name}.request.json`);
export const responsePath = (dir: string, name: string) => join(dir, `${name}.response.json`);

/** A handshake-era case whose request is an initialize opens the connection itself: no preamble. */
function opensConnection(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { method?: unknown }).method === 'initialize';
  } catch {
    return false; // requestLine reports it
  }
}

/** The request line exactly as stored: the file is one line, with or without its final newline. */
export function requestLine(dir: string, c: CorpusCase, cwd = process.cwd()): string {
  const path = requestPath(dir, c.name);
  const shown = relative(cwd, path) || path;
  const text = readFileSync(path, 'utf8');
  const line = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (line.includes('\n')) throw new InputError([{ file: shown, message: 'a request file holds one line (the request exactly as sent)' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (err) {
    throw new InputError([{ file: shown, message: `not JSON: ${(err as Error).message}` }]);
  }
  if (!isObject(parsed) || typeof parsed['method'] !== 'string' || parsed['id'] === undefined)
    throw new InputError([{ file: shown, message: 'not a JSON-RPC request (it needs a method and an id)' }]);
  return line;
}

/** The committed response, parsed; undefined when the case has none yet. */
export function expectedResponse(dir: string, c: CorpusCase, cwd = process.cwd()): unknown {
  const path = responsePath(dir, c.name);
  return existsSync(path) ? readJson(path, relative(cwd, path) || path) : undefined;
}
