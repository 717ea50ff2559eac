/**
 * @module mcp/catalog/types — a catalog as data: the spec (tools, resources, resource templates, prompts,
 * with the spec-only fields that say how a value becomes a result) and the behaviours that serve it. The
 * generated sample modules (`generated/samples/<name>/`) and the code-first builder (code-first.ts) both
 * produce a {@link CatalogDefinition}; catalog.ts serves one.
 */
import type { PromptMessage, Tool } from '@wiregen/mcp-2026-07-28';
import type { JsonObject } from '../../jsonrpc/message.ts';
import type { CacheHints, RequestContext } from '../server/types.ts';
import type { Check } from '../../core/index.ts';

/** How a tool's return value becomes its result. */
export type ToolOutput =
  /** `structuredContent: {result: value}` and the value as text (the SDK's MCPServer, as recorded in test/fixtures/recordings/). */
  | 'wrapped'
  /** The value (an object) as `structuredContent`, and its canonical JSON (sorted keys, compact) as text. */
  | 'structured'
  /** The value (a string) as one text block. */
  | 'text'
  /** The value is the whole CallToolResult. */
  | 'result';

/**
 * A tool as the spec lists it: the schema's `Tool` (checked against it when the spec is made: by the generator
 * for spec files, by code-first.ts for code) plus the spec-only fields below.
 */
export interface ToolSpec extends JsonObject {
  name: string;
  /** The schema's `Tool.inputSchema`: a JSON Schema object of `type: "object"`. */
  inputSchema: Tool['inputSchema'];
  /** Default `text`, or `wrapped` when the tool has an outputSchema. */
  output?: ToolOutput;
  /** Unlisted tools are callable but absent from tools/list. Default true. */
  listed?: boolean;
}
/** A resource as the schema's `Resource` (checked as a {@link ToolSpec} is). */
export interface ResourceSpec extends JsonObject {
  uri: string;
  name: string;
}
/** A resource template as the schema's `ResourceTemplate` (checked as a {@link ToolSpec} is). */
export interface ResourceTemplateSpec extends JsonObject {
  uriTemplate: string;
  name: string;
}
/** A prompt as the schema's `Prompt` (checked as a {@link ToolSpec} is). */
export interface PromptSpec extends JsonObject {
  name: string;
}

export interface CatalogSpec {
  readonly serverInfo: { readonly name: string; readonly version: string } & JsonObject;
  readonly instructions?: string;
  readonly capabilities: { readonly handshake: JsonObject; readonly stateless: JsonObject };
  readonly cache?: CacheHints;
  /** A call to a tool the catalog lacks: -32602 "Unknown tool: <name>" (default), or an isError result (the Python SDK). */
  readonly unknownTool?: 'error' | 'result';
  /**
   * Arguments that fail a tool's inputSchema: `result` (default), a tool execution error, an isError result
   * "Error executing tool <name>: invalid arguments: <pointer> <reason>; …" naming each JSON pointer and what
   * was allowed (an enum's values, the constant, the limit); or `error`, -32602 "Invalid arguments for tool
   * <name>: …" with the same text.
   *
   * One rule for every revision. The schema's CallToolResult.isError says the same from 2024-11-05 to
   * 2026-07-28: "Any errors that originate from the tool SHOULD be reported inside the result object, with
   * `isError` set to true, _not_ as an MCP protocol-level error response. Otherwise, the LLM would not be able
   * to see that an error occurred and self-correct." The tools page of 2025-11-25 (SEP-1303) and later names
   * "Input validation errors (e.g., date in wrong format, value out of range)" a tool execution error and
   * keeps protocol errors for requests failing the CallToolRequest schema
   * (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling). The pages of
   * 2024-11-05 to 2025-06-18 list both "Invalid arguments" (protocol errors) and "Invalid input data" (tool
   * execution errors) without telling them apart, and the schema does not change there, so those revisions
   * get the same answer; the TypeScript SDK v2's McpServer (2.4.0) also answers its input validation error
   * with an isError result in every revision.
   */
  readonly invalidArguments?: 'error' | 'result';
  /**
   * McpServerOptions.thrownErrors: what the client reads of an error a function throws. `show` (default), its
   * message; `mask`, "Error executing tool <name>" and -32603 "Internal error" (the Python SDK of the
   * recordings: `recorded-server`), except a PublicError's message.
   */
  readonly thrownErrors?: 'show' | 'mask';
  /**
   * A successful tools/call result: with `isError: false` (`send`, default; what the official Python SDK sends)
   * or without it (`omit`; the schema's default when absent, $def CallToolResult; the reference Golden Server).
   */
  readonly isErrorFalse?: 'send' | 'omit';
  /**
   * completion/complete: `total` and `hasMore` beside the values (`send`, default) or the values only (`omit`;
   * both are optional, $def CompleteResult; the reference Golden Server).
   */
  readonly completionCounts?: 'send' | 'omit';
  /** McpServerOptions.instructionsIn: where initialize carries the instructions. Default `result`. */
  readonly instructionsIn?: 'result' | 'serverInfo';
  /** McpServerOptions.supportedVersions: the revisions server/discover and -32022 list. Default `stateless`. */
  readonly supportedVersions?: 'stateless' | 'all';
  /** McpServerOptions.methodNotFound: the wording of 2026-07-28-era -32601 for a removed method. Default `data`. */
  readonly methodNotFound?: 'data' | 'revision';
  readonly pageSize?: number;
  readonly tools?: readonly ToolSpec[];
  readonly resources?: readonly ResourceSpec[];
  readonly resourceTemplates?: readonly ResourceTemplateSpec[];
  readonly prompts?: readonly PromptSpec[];
}

/** What a resource function returns: its text, or its contents. */
export type ResourceBody = string | { text: string; mimeType?: string } | { blob: string; mimeType?: string };
/** What a prompt function returns: the user message's text, or the messages. */
export type PromptBody = string | { description?: string; messages: PromptMessage[] };
/** A completion request's reference and argument. */
export interface CompletionQuery {
  readonly ref: JsonObject;
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: JsonObject;
}

/** The behaviours a sample module passes in (the generated module types them per tool and prompt). */
export interface Behaviours {
  readonly tools?: Readonly<Record<string, (args: never, ctx: RequestContext) => unknown>>;
  readonly resources?: Readonly<Record<string, (ctx: RequestContext) => ResourceBody | Promise<ResourceBody>>>;
  /** Each gets what matchTemplate yields for its uriTemplate (uri-template.ts; the generated module types it per template). */
  readonly resourceTemplates?: Readonly<Record<string, (vars: never, ctx: RequestContext) => ResourceBody | Promise<ResourceBody>>>;
  readonly prompts?: Readonly<Record<string, (args: never, ctx: RequestContext) => PromptBody | Promise<PromptBody>>>;
  readonly complete?: (query: CompletionQuery, ctx: RequestContext) => readonly string[] | Promise<readonly string[]>;
}

/** What a {@link Parser} makes of a value: the value its function gets, or what is wrong (`<JSON pointer> <reason>; …`). */
export type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problems: string };
/**
 * A check that also makes the value: a Standard Schema's validate (standard/validate.ts), whose output (with
 * the library's transforms, coercions and defaults) is what the function gets or the client receives.
 */
export type Parser = (value: unknown) => Parsed | Promise<Parsed>;

/** A tool's checks: ajv's of its JSON Schemas (`input`, `output`), or its Standard Schemas' (`parseInput`, `parseOutput`). */
export interface ToolChecks {
  readonly input?: Check;
  readonly output?: Check;
  readonly parseInput?: Parser;
  readonly parseOutput?: Parser;
}

export interface CatalogDefinition {
  readonly spec: CatalogSpec;
  readonly behaviours: Behaviours;
  /** Precompiled validators of each tool's input and output schemas (generated, or compiled once by code-first.ts). */
  readonly validators: Readonly<Record<string, ToolChecks>>;
  /** A prompt's arguments given as a Standard Schema (code-first.ts): its parser, by prompt name. */
  readonly promptParsers?: Readonly<Record<string, Parser>>;
}
