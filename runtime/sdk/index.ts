/**
 * @module sdk — `@wiregen/runtime/sdk`: a server written for the official MCP TypeScript SDK v2
 * (`@modelcontextprotocol/server`) runs on wiregen by changing its imports: `McpServer` with `registerTool`,
 * `registerResource` (`ResourceTemplate`), `registerPrompt`, their handles and list-changed notifications,
 * `createMcpHandler` for Streamable HTTP, the SDK's callback context (`ctx.mcpReq.*`) and errors.
 * `serveStdio` and `StdioServerTransport` are `@wiregen/runtime/sdk/stdio`. docs/sdk-migration.md lists
 * what is covered and what is not.
 */
export { McpServer, ResourceTemplate, type McpServerOptions, type PromptConfig, type ToolConfig } from './server.ts';
export { UriTemplate, type CompleteResourceTemplateCallback, type ListResourcesCallback } from './resource-template.ts';
export { completable, isCompletable, type CompleteCallback } from './completion.ts';
export { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from './errors.ts';
export {
  createMcpHandler,
  type CreateMcpHandlerOptions,
  type McpHandlerRequestOptions,
  type McpHttpHandler,
  type McpRequestContext,
  type ServerNotifier,
} from './http.ts';
export type { McpServerFactory } from './stdio.ts';
export type {
  AuthInfo,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Notification,
  RequestOptions,
  ServerContext,
} from './context.ts';
export type {
  CallToolResult,
  GetPromptResult,
  ListResourcesResult,
  PromptCallback,
  ReadResourceCallback,
  ReadResourceResult,
  ReadResourceTemplateCallback,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredResourceTemplate,
  RegisteredTool,
  ResourceMetadata,
  ToolCallback,
  Variables,
} from './registry.ts';
export type { InferOutput, StandardSchemaWithJSON } from './schema.ts';
export type { Transport } from './transport.ts';
