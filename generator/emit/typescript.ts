/**
 * @module emit/typescript — TypeScript's compiler API, which the emitters parse ajv's output with, loaded with
 * `require`. The package is CommonJS: imported from an ES module, Node first compiles its 9 MB as a module to
 * learn that it is not one, then scans it for export names, which took about 0.4 s of every generate's main
 * thread (a third of the package's whole load); `require` does neither.
 */
import { createRequire } from 'node:module';

export const ts: typeof import('typescript') = createRequire(import.meta.url)('typescript');
