/**
 * @module a2a/postgres — A2A on PostgreSQL (`@wiregen/runtime/a2a/postgres`; needs the optional peer `pg`):
 * the task and push-configuration store many instances share, with its schema migrations.
 */
export { migrate, MIGRATIONS, POSTGRES_SCHEMA_VERSION, type Migration, type MigrationResult } from './migrations.ts';
export { PostgresTaskStore, type PostgresStoreOptions } from './store.ts';
