#!/usr/bin/env node
// Entry point in the repository: loads the TypeScript generator through tsx, so no build step is needed on
// Node 20. tsx reads this repository's tsconfig.json wherever the command runs, so `@wiregen/*` resolves to
// the sources here (its `paths`) for the generator and for a module `wiregen serve` loads from elsewhere.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../generator/cli.ts');
process.exitCode = await main(process.argv.slice(2));
