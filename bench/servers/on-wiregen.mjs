// bench/servers/on-wiregen — runs the SDK v2 peer's server files (v2-http.mjs, v2-tool.mjs) on wiregen: their
// imports of @modelcontextprotocol/server resolve to @wiregen/runtime/sdk (its built dist/, as a user installs
// it), every other module keeping its own. The one change a migration makes (docs/sdk-migration.md).
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
const TO = { '@modelcontextprotocol/server': '@wiregen/runtime/sdk', '@modelcontextprotocol/server/stdio': '@wiregen/runtime/sdk/stdio' };
export async function resolve(specifier, context, next) {
  const to = TO[specifier];
  return to && /\\/bench\\/servers\\/v2-[a-z]+\\.mjs$/.test(context.parentURL ?? '') ? next(to, context) : next(specifier, context);
}`)}`,
);
