/**
 * @module a2a — A2A 1.0 agents and clients (https://a2a-protocol.org/latest/specification/): the JSON-RPC
 * and HTTP+JSON bindings, streaming, push notifications and task stores. The SQLite store is the subpath
 * `@wiregen/runtime/a2a/sqlite` (it needs the optional peer better-sqlite3); PostgreSQL, for many instances
 * behind one address (A2aServer's `cluster` option), is `@wiregen/runtime/a2a/postgres` (the optional peer pg).
 */
export { isAgentDefinition, type AgentDefinition } from './agent.ts';
export { A2aServer, type A2aServerOptions } from './server.ts';
export {
  A2aHttpHandler,
  listenA2aHttp,
  type A2aHttpOptions,
  type Authenticate,
  type AuthRequest,
  type AuthResult,
  type RunningA2aServer,
} from './http.ts';
export {
  a2aExpress,
  a2aFetchHandler,
  a2aNodeHandler,
  type A2aExpressMiddleware,
  type A2aFetchHandler,
  type A2aFetchOptions,
  type A2aNodeHandler,
} from './http-adapters.ts';
export { a2aWorker, type A2aWorker, type A2aWorkerOptions } from '../platform/a2a-worker.ts';
export type { PlatformContext, PlatformEnv } from '../platform/env.ts';
export { A2aClient, InvalidTaskError, type InvalidTask, type ListTasksOptions } from './client-list.ts';
export { InvalidAgentCardError, type CardProblem } from './client-card.ts';
export { A2A_CLIENT_LIMIT_DEFAULTS, type A2aClientLimits } from './client-limits.ts';
export {
  A2aClientError,
  A2aClientLimitError,
  clientForCard,
  connect,
  jsonRpcTransport,
  restTransport,
  type Binding,
  type ClientFieldViolation,
  type TransportOptions,
} from './client.ts';
export { A2aError, type FieldViolation } from './errors.ts';
export type { PushOptions } from './push.ts';
export { a2aAuthenticate, type A2aVerifiers, type ApiKeyVerifier, type BearerGrant, type BearerVerifier, type CardSecurity } from './security.ts';
export {
  InMemoryTaskStore,
  StoreUnavailableError,
  TaskConflictError,
  type TaskPage,
  type TaskQuery,
  type TaskStore,
  type VersionedTask,
  type VersionedTaskStore,
} from './store.ts';
export type { A2aCluster, ClusterMessage, CommitResult, LeaseChange, PushDelivery } from './cluster.ts';
export type { ClusterLedgerOptions } from './ledger.ts';
export type { AuthInfo } from '../auth/info.ts';
export { KIT_BEHAVIOUR, SDK_BEHAVIOUR, type A2aBehaviour, type AgentExecutor, type ExecutionContext, type TaskHandle } from './types.ts';
