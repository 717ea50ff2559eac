// The resolve hook of on-wiregen.mjs: only the server files' own imports are redirected.
const TO = {
  '@modelcontextprotocol/server': '@wiregen/runtime/sdk',
  '@modelcontextprotocol/server/stdio': '@wiregen/runtime/sdk/stdio',
};

export async function resolve(specifier, context, next) {
  const to = TO[specifier];
  if (to && context.parentURL?.includes('/test/sdk-compat/servers/')) return next(to, context);
  return next(specifier, context);
}
