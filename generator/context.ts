/**
 * @module context — options resolved once, frozen into the Context every pass takes first.
 */
import { join } from 'node:path';

export interface Options {
  /** Project root. Default: the working directory. */
  readonly root: string;
  /** Pinned inputs, manifests and their schemas. Default: `<root>/schemas`. */
  readonly schemasDir: string;
  /** Where packages are written. Default: `<root>/generated`. */
  readonly generatedDir: string;
  /** The pin registry. Default: `<schemasDir>/pins.json`. */
  readonly pinsFile: string;
  /** Restrict `wiregen generate` to these pin ids and repository spec names. Default: all of them. */
  readonly only?: readonly string[];
  /** Progress output. Default: a line on stdout. */
  readonly log: (line: string) => void;
}

/** Read-only state shared by the passes. */
export interface Context {
  readonly options: Options;
}

export const GENERATOR_NAME = 'wiregen';

/** The project the command runs in: the working directory (it holds `schemas/` and `generated/`). */
export function defaultRoot(): string {
  return process.cwd();
}

export function defaultOptions(): Options {
  const root = defaultRoot();
  return {
    root,
    schemasDir: join(root, 'schemas'),
    generatedDir: join(root, 'generated'),
    pinsFile: join(root, 'schemas', 'pins.json'),
    log: (line) => process.stdout.write(`${line}\n`),
  };
}

/** Fills unset options from the defaults; paths derived from `root`/`schemasDir` follow them. */
export function resolveOptions(partial: Partial<Options> = {}): Options {
  const d = defaultOptions();
  const root = partial.root ?? d.root;
  const schemasDir = partial.schemasDir ?? join(root, 'schemas');
  return Object.freeze({
    root,
    schemasDir,
    generatedDir: partial.generatedDir ?? join(root, 'generated'),
    pinsFile: partial.pinsFile ?? join(schemasDir, 'pins.json'),
    log: partial.log ?? d.log,
    ...(partial.only ? { only: partial.only } : {}),
  });
}

export function createContext(partial: Partial<Options> = {}): Context {
  return Object.freeze({ options: resolveOptions(partial) });
}
