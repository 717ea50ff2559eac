/**
 * @module platform/env — configuration read from a platform's environment: Cloudflare Workers' `env` bindings
 * (secrets and vars, given to `fetch(request, env, ctx)`), or Deno.env / Bun.env / process.env as an object.
 * Two bindings, by documented name: the requestState key (MRTR, `McpServerOptions.requestStateSecret`: several
 * isolates or instances must share it) and the names the server answers to (`McpHttpOptions.allowedHosts`,
 * the DNS-rebinding Host check of https://modelcontextprotocol.io/specification/2026-07-28/basic/transports#security-warning).
 * A malformed binding is a one-line error naming it.
 */

/** The environment: bindings by name (a Worker's `env`, `Deno.env.toObject()`, `Bun.env`, `process.env`). */
export type PlatformEnv = Readonly<Record<string, unknown>>;

/** The bindings `fromEnv` reads. */
export const ENV_BINDINGS = {
  /** The requestState key: 32 random bytes in base64 (`openssl rand -base64 32`), a secret binding. */
  requestStateSecret: 'MCP_REQUEST_STATE_SECRET',
  /** The host names the server answers to, comma-separated (`mcp.example.com,mcp.example.net`), a var. */
  allowedHosts: 'MCP_ALLOWED_HOSTS',
} as const;

/** What `fromEnv` read: each only when its binding is set. */
export interface EnvSettings {
  /** For `McpServerOptions.requestStateSecret`. */
  readonly requestStateSecret?: Uint8Array;
  /** For `McpHttpOptions.allowedHosts`. */
  readonly allowedHosts?: string[];
}

/** A binding that is set but cannot be used: its message names the binding and what is wrong. */
export class EnvBindingError extends Error {
  readonly binding: string;
  constructor(binding: string, problem: string) {
    super(`${binding}: ${problem}`);
    this.name = 'EnvBindingError';
    this.binding = binding;
  }
}

/** The bytes of a base64 (or base64url) text; undefined when it is not base64. */
function base64Bytes(text: string): Uint8Array | undefined {
  const b64 = text.trim().replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return undefined;
  try {
    return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** A binding's text: undefined when unset or empty; an error when it holds something else than text. */
function text(env: PlatformEnv, binding: string): string | undefined {
  const value = env[binding];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new EnvBindingError(binding, `expected a text binding (secret or var), got ${typeof value}`);
  return value;
}

/**
 * Reads `MCP_REQUEST_STATE_SECRET` (base64 of exactly 32 bytes) and `MCP_ALLOWED_HOSTS` (a comma-separated
 * list of host names, spaces ignored) from `env`. Unset bindings are left out (the server's defaults apply:
 * a random key per isolate, no Host check). Throws EnvBindingError, naming the binding, when one is malformed.
 */
export function fromEnv(env: PlatformEnv): EnvSettings {
  const out: { requestStateSecret?: Uint8Array; allowedHosts?: string[] } = {};
  const secret = text(env, ENV_BINDINGS.requestStateSecret);
  if (secret !== undefined) {
    const bytes = base64Bytes(secret);
    if (!bytes) throw new EnvBindingError(ENV_BINDINGS.requestStateSecret, 'not base64 (make one with `openssl rand -base64 32`)');
    if (bytes.length !== 32)
      throw new EnvBindingError(
        ENV_BINDINGS.requestStateSecret,
        `decodes to ${bytes.length} bytes, expected 32 (make one with \`openssl rand -base64 32\`)`,
      );
    out.requestStateSecret = bytes;
  }
  const hosts = text(env, ENV_BINDINGS.allowedHosts);
  if (hosts !== undefined) {
    const list = hosts.split(',').map((h) => h.trim());
    const bad = list.find((h) => h === '' || /[\s/@]/.test(h));
    if (bad !== undefined)
      throw new EnvBindingError(
        ENV_BINDINGS.allowedHosts,
        `${JSON.stringify(bad)} is not a host name (expected e.g. "mcp.example.com,mcp.example.net")`,
      );
    out.allowedHosts = list.map((h) => h.toLowerCase());
  }
  return out;
}

/** What a fetch-only platform gives a request besides its env (Workers' ExecutionContext): `waitUntil` at least. */
export interface PlatformContext {
  /** Keeps the isolate serving until `promise` settles, after the response is sent. */
  waitUntil(promise: Promise<unknown>): void;
}
