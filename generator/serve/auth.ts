/**
 * @module serve/auth — `wiregen serve --auth <config>`: the protected-resource configuration of an MCP server
 * served over HTTP, read from a YAML or JSON file, checked against serve/auth.schema.json (every problem one
 * line naming the file, line and field), and turned into the `authorization` option of listenMcpHttp by
 * `protectedResource` of @wiregen/runtime/auth (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ProtectedResourceOptions, ResourceAuthorization } from '@wiregen/runtime/auth';
import { InputError } from '../errors.ts';
import { assertValid, compileInputSchema } from '../load/validate-input.ts';
import { readYaml } from '../load/yaml.ts';
import { usageError } from '../commands/command.ts';

const SCHEMA = JSON.parse(readFileSync(new URL('./auth.schema.json', import.meta.url), 'utf8')) as object;

/** Reads and checks `file` (relative to `root`), then makes the authorization; bad input is an InputError or CliError. */
export async function loadAuthorization(file: string, root: string): Promise<ResourceAuthorization> {
  const abs = resolve(root, file);
  if (!existsSync(abs)) throw usageError('serve', `--auth ${file}: no such file`);
  const { data, locate } = readYaml(abs, file);
  assertValid(compileInputSchema(SCHEMA), data, file, locate);
  const { AuthError, protectedResource } = await import('@wiregen/runtime/auth');
  try {
    return protectedResource(data as ProtectedResourceOptions);
  } catch (err) {
    // The configuration's own refusals (AuthError), and a URL that does not parse (TypeError from new URL).
    if (err instanceof AuthError || err instanceof TypeError) throw new InputError([{ file, message: err.message }]);
    throw err;
  }
}
