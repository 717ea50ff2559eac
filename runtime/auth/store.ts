/**
 * @module auth/store — where an OAuth client keeps what it obtained: the tokens for each protected server
 * (with the issuer that granted them, so a server that moves to another authorization server gets new
 * ones) and the client registration at each authorization server (registrations are never carried from one
 * issuer to another: https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization). Pluggable;
 * memory by default. Nothing here is ever logged.
 */
import type { JsonValue } from 'oauth4webapi';

/** Tokens granted for one protected server. */
export interface StoredGrant {
  /** The authorization server that issued them (its issuer identifier). */
  readonly issuer: string;
  /** The resource they were asked for (RFC 8707 `resource`). */
  readonly resource: string;
  readonly accessToken: string;
  /** `bearer` or `dpop` (lower case). */
  readonly tokenType: string;
  readonly refreshToken?: string;
  /** Epoch milliseconds after which the access token is not used (from `expires_in`). */
  readonly expiresAt?: number;
  /** The scopes granted (the response's `scope`, else those requested). */
  readonly scope?: string;
}

/** A client's identity at one authorization server: registered, from a Client ID Metadata Document, or pre-registered. */
export interface StoredClient {
  readonly client_id: string;
  readonly client_secret?: string;
  /** How the client authenticates at the token endpoint (RFC 7591 §2). */
  readonly token_endpoint_auth_method?: string;
  /** The rest of the registration response (RFC 7591 §3.2.1). */
  readonly [k: string]: JsonValue | undefined;
}

/** The storage an OAuth client uses; every method may be async (a keychain, a file, a database). */
export interface AuthStore {
  /** The grant for the server at `serverUrl` (its canonical URI), if any. */
  getGrant(serverUrl: string): StoredGrant | undefined | Promise<StoredGrant | undefined>;
  setGrant(serverUrl: string, grant: StoredGrant): void | Promise<void>;
  deleteGrant(serverUrl: string): void | Promise<void>;
  /** The client registered at the authorization server `issuer`, if any. */
  getClient(issuer: string): StoredClient | undefined | Promise<StoredClient | undefined>;
  setClient(issuer: string, client: StoredClient): void | Promise<void>;
  deleteClient(issuer: string): void | Promise<void>;
}

/** The default store: in memory, gone when the process ends. */
export class MemoryAuthStore implements AuthStore {
  readonly #grants = new Map<string, StoredGrant>();
  readonly #clients = new Map<string, StoredClient>();
  getGrant(serverUrl: string): StoredGrant | undefined {
    return this.#grants.get(serverUrl);
  }
  setGrant(serverUrl: string, grant: StoredGrant): void {
    this.#grants.set(serverUrl, grant);
  }
  deleteGrant(serverUrl: string): void {
    this.#grants.delete(serverUrl);
  }
  getClient(issuer: string): StoredClient | undefined {
    return this.#clients.get(issuer);
  }
  setClient(issuer: string, client: StoredClient): void {
    this.#clients.set(issuer, client);
  }
  deleteClient(issuer: string): void {
    this.#clients.delete(issuer);
  }
}
