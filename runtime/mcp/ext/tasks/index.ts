/**
 * @module mcp/ext/tasks — `@wiregen/runtime/mcp/ext/tasks`: the MCP tasks extension (io.modelcontextprotocol/tasks,
 * SEP-2663, https://modelcontextprotocol.io/seps/2663-tasks-extension), server side (McpTasks, given to a server
 * in `extensions`), with the in-memory task store, and client side (McpTasksClient, given to a client in
 * `extensions`: task-augmented tools/call, polling, tasks/update, tasks/cancel). The SQLite store is
 * `@wiregen/runtime/mcp/ext/tasks/sqlite` (optional peer better-sqlite3). Servers and clients that do not use
 * tasks never load this area.
 */
export { isCreateTaskResult, McpTaskError, McpTasksClient, type WaitOptions } from './client.ts';
export { McpTasks, type BeginOptions, type McpTasksOptions } from './server.ts';
export { InMemoryMcpTaskStore, type McpTaskStore, type StoredTask } from './store.ts';
export { TASKS_EXTENSION } from './protocol.ts';
