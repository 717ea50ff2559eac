#!/usr/bin/env node
// Entry point: loads the TypeScript generator through tsx, so no build step is needed on Node 20.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../generator/cli.ts');
process.exitCode = await main(process.argv.slice(2));
