/**
 * @module wiregen — the generator as a library: the command line (`main`) and the options every pass takes.
 */
export { main } from './cli.ts';
export { createContext, resolveOptions, type Context, type Options } from './context.ts';
export { InputError, formatDiagnostic, type Diagnostic } from './errors.ts';
