/**
 * @module mcp/ext/tasks — `@wiregen/runtime/mcp/ext/tasks`: the MCP tasks extension (io.modelcontextprotocol/tasks,
 * SEP-2663, https://modelcontextprotocol.io/seps/2663-tasks-extension), server side (McpTasks, given to a server
 * in `extensions`), with the in-memory task store. The SQLite store is
 * `@wiregen/runtime/mcp/ext/tasks/sqlite` (optional peer better-sqlite3). Servers that do not use tasks never
 * load this area.
 */
export { McpTasks, type BeginOptions, type McpTasksOptions } from './server.ts';
export { InMemoryMcpTaskStore, TERMINAL, type McpTaskStore, type StoredTask } from './store.ts';
export { declaresTasks, missingTasksCapability, TASKS_EXTENSION, taskNotFound } from './protocol.ts';
