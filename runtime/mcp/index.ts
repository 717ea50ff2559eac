/**
 * @module mcp — MCP servers and clients over stdio and Streamable HTTP, in both protocol eras: the
 * handshake era (initialize; revisions 2024-11-05 to 2025-11-25) and 2026-07-28
 * (https://modelcontextprotocol.io/specification/2026-07-28).
 */
export { McpServer } from './server/server.ts';
export type { ExtensionMethod, ListenTarget, McpServerExtension } from './server/extensions.ts';
export type {
  AuthInfo,
  CacheHints,
  CatalogChange,
  ElicitAnswer,
  ElicitSchema,
  Era,
  Handler,
  InputMethod,
  InputRequest,
  InputResult,
  InputResults,
  LoggingLevel,
  McpHandlers,
  McpServerOptions,
  NotificationBus,
  NotificationHandler,
  RequestContext,
} from './server/types.ts';
export { LOGGING_LEVELS } from './server/types.ts';
export { InputRequired } from './stateless/mrtr.ts';
export { PublicError, type ThrownErrors } from './server/thrown.ts';
export {
  catalogHandlers,
  catalogServerOptions,
  type Behaviours,
  type CompletionQuery,
  type CatalogDefinition,
  type CatalogSpec,
  type Parsed,
  type Parser,
  type PromptBody,
  type PromptSpec,
  type ResourceBody,
  type ResourceSpec,
  type ResourceTemplateSpec,
  type ToolChecks,
  type ToolOutput,
  type ToolSpec,
} from './catalog/catalog.ts';
export {
  expandUriTemplate,
  matchTemplate,
  parseUriTemplate,
  UriTemplateError,
  uriTemplateVariables,
  type UriTemplateExpression,
  type UriTemplateMatch,
  type UriTemplateOperator,
  type UriTemplatePart,
  type UriTemplateValues,
  type UriTemplateVariable,
  type UriTemplateVariables,
  type UriTemplateVarSpec,
} from './catalog/uri-template.ts';
export {
  DefinitionError,
  mcpServer,
  McpServerBuilder,
  type CodeFirstOptions,
  type CodeSchema,
  type PromptArgumentDefinition,
  type PromptArguments,
  type PromptArgumentsSchema,
  type PromptDefinition,
  type ResourceDefinition,
  type ResourceReader,
  type SchemaOutput,
  type TemplateVariables,
  type ToolDefinition,
  type ToolFunction,
  type ToolValue,
} from './catalog/code-first.ts';
export type { FromSchema, JsonSchema, ObjectSchema } from './catalog/from-schema.ts';
export type { Scoped } from './catalog/scopes.ts';
export type { SupportedVersions } from './revisions.ts';
export { blob, block, result, type ToolResult } from './catalog/results.ts';
export type { ResumabilityOptions } from './http/resume.ts';
export {
  HTTP_DEFAULTS,
  listenMcpHttp,
  McpHttpHandler,
  type HttpAuthorization,
  type HttpRefusal,
  type McpHttpOptions,
  type RunningHttpServer,
} from './http/handler.ts';
export {
  mcpExpress,
  mcpFetchHandler,
  mcpNodeHandler,
  type McpExpressMiddleware,
  type McpFetchHandler,
  type McpHttpAdapter,
  type McpNodeHandler,
} from './http/adapters.ts';
export { mcpWorker, type McpWorker, type McpWorkerConfig, type McpWorkerOptions } from './worker.ts';
export { ENV_BINDINGS, EnvBindingError, fromEnv, type EnvSettings, type PlatformContext, type PlatformEnv } from '../platform/env.ts';
export {
  McpClient,
  McpClientError,
  type CallContext,
  type CallOptions,
  type ClientChannel,
  type ClientMode,
  type McpClientExtension,
  type McpClientOptions,
  type RequestArgs,
  type ServerRequestHandlers,
} from './client/client.ts';
export { HttpChannel, spawnStdio, type HttpChannelOptions } from './client/channels.ts';
export { CLIENT_LIMIT_DEFAULTS, McpClientLimitError, type McpClientLimits } from './client/limits.ts';
