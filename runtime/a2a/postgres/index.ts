/**
 * @module a2a/postgres — A2A on PostgreSQL (`@wiregen/runtime/a2a/postgres`; needs the optional peer `pg`):
 * the task and push-configuration store many instances share, with its schema migrations, and the cluster
 * coordination (leases, events across instances through LISTEN/NOTIFY, the push outbox) an A2aServer's
 * `cluster` option takes; and the notification bus MCP server instances share their catalog changes on.
 */
export { MAX_PAYLOAD_BYTES, PostgresBus, type PostgresBusOptions } from './bus.ts';
export { PostgresCluster, type PostgresClusterOptions } from './cluster.ts';
export { mcpNotificationBus, type McpNotificationBusOptions } from './mcp-bus.ts';
export { migrate, MIGRATIONS, POSTGRES_SCHEMA_VERSION, type Migration, type MigrationResult } from './migrations.ts';
export { PostgresTaskStore, type PostgresStoreOptions } from './store.ts';
