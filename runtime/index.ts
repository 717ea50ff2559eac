/**
 * @module @wiregen/runtime — the pin-independent core, JSON-RPC and transports. The protocols are subpaths
 * of their own (`@wiregen/runtime/mcp`, `@wiregen/runtime/a2a`), so importing one does not load the other.
 */
export * from './core/index.ts';
export * from './jsonrpc/index.ts';
export * from './transports/index.ts';
