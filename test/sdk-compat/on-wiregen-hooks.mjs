// The resolve hook of on-wiregen.mjs: only the server files' own imports are redirected. With
// SDK_COMPAT_TRACE set, each redirection is written to stderr (the tests check it happened).
const TO = {
  '@modelcontextprotocol/server': '@wiregen/runtime/sdk',
  '@modelcontextprotocol/server/stdio': '@wiregen/runtime/sdk/stdio',
};

export async function resolve(specifier, context, next) {
  const to = TO[specifier];
  if (!to || !context.parentURL?.includes('/test/sdk-compat/servers/')) return next(specifier, context);
  const resolved = await next(to, context);
  if (process.env.SDK_COMPAT_TRACE) process.stderr.write(`on-wiregen: ${specifier} -> ${resolved.url}\n`);
  return resolved;
}
