/**
 * @module wiregen — the generator as a library: the command line (`main`), one spec to its module
 * (`generateSpec`, what `wiregen generate --spec` runs), and the options every pass takes.
 */
export { main } from './cli.ts';
export { createContext, resolveOptions, type Context, type Options } from './context.ts';
export { InputError, formatDiagnostic, type Diagnostic } from './errors.ts';
export { generateSpec, type GeneratedSpec } from './spec/generate.ts';
export type { LoadedSpec } from './spec/load.ts';
export type { SpecKind, SpecPin } from './spec/pins.ts';
