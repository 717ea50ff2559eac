#!/usr/bin/env node
/**
 * @module bin — the installed `wiregen` command (the built generator; the repository's bin/wiregen.mjs runs
 * the same `main` from sources).
 */
import { main } from './cli.ts';

process.exitCode = await main(process.argv.slice(2));
