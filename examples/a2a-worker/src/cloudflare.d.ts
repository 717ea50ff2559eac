/**
 * @module cloudflare — the few Cloudflare Workers types this example uses, so that it typechecks on its own. In
 * a project, take them from `@cloudflare/workers-types` or `wrangler types` instead of this file.
 */
declare module 'cloudflare:workers' {
  /** A Durable Object's storage: transactional, strongly consistent, one object's alone. */
  export interface DurableObjectStorage {
    get<T = unknown>(key: string): Promise<T | undefined>;
    put<T>(key: string, value: T): Promise<void>;
    delete(key: string): Promise<boolean>;
    list<T = unknown>(options?: { prefix?: string }): Promise<Map<string, T>>;
  }
  export interface DurableObjectState {
    readonly storage: DurableObjectStorage;
  }
  /** The base class of a Durable Object whose public methods are called over RPC. */
  export abstract class DurableObject<Env = unknown> {
    protected readonly ctx: DurableObjectState;
    protected readonly env: Env;
    constructor(ctx: DurableObjectState, env: Env);
  }
}

/** A Durable Object namespace binding, its RPC methods typed by `T`. */
interface DurableObjectNamespace<T> {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): DurableObjectStub<T>;
}
interface DurableObjectId {
  toString(): string;
}
/** RPC: every method returns a promise of its (structured-cloned) result. */
type DurableObjectStub<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};
