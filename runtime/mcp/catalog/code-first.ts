/**
 * @module mcp/catalog/code-first — an MCP server written in code, without a spec file:
 *
 * ```ts
 * const server = mcpServer({ name: 'weather', version: '1.0.0' })
 *   .tool('to_fahrenheit', { input: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] } },
 *         ({ celsius }) => `${(celsius * 9) / 5 + 32}`)
 *   .resource('weather://cities', { mimeType: 'text/plain' }, () => 'Oslo\nParis')
 *   .prompt('forecast', { arguments: [{ name: 'city', required: true }] }, ({ city }) => `The forecast for ${city}?`);
 * await server.serveStdio();
 * ```
 *
 * Argument and value types come from the JSON Schemas (from-schema.ts), or from Standard Schemas (Zod,
 * Valibot, ArkType…: their JSON Schema is derived for the listing and the library validates, standard/). It builds the same
 * {@link CatalogDefinition} a generated sample module does (spec, behaviours, validators) and serves it
 * through the catalog (catalog.ts), so every wire detail is the generated path's. The items and schemas are
 * checked and compiled once, on the first {@link McpServerBuilder.definition} (code-first-compile.ts, which loads
 * ajv then); what is wrong is a {@link DefinitionError} naming each item and JSON pointer.
 */
import type { Icon, MetaObject, ToolAnnotations } from '@wiregen/mcp-2026-07-28';
import type { JsonObject } from '../../jsonrpc/message.ts';
import { stdioTransport } from '../../transports/stdio.ts';
import { catalogServerOptions, type CatalogDefinition, type PromptBody, type ResourceBody, type ToolSpec } from './catalog.ts';
import type { Behaviours, CatalogSpec, PromptSpec, ResourceSpec, ResourceTemplateSpec } from './types.ts';
import { compileDefinition, DefinitionError } from './code-first-compile.ts';
import type { FromSchema, ObjectSchema } from './from-schema.ts';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { StandardItems } from './standard/derive.ts';
import { isStandardSchema } from './standard/json-schema.ts';
import { McpServer } from '../server/server.ts';
import type { CacheHints, McpServerOptions, RequestContext } from '../server/types.ts';
import { parseUriTemplate, type UriTemplateVariables } from './uri-template.ts';

export { DefinitionError };

type Async<T> = T | Promise<T>;

export interface CodeFirstOptions {
  /** serverInfo.name (handshake) and `_meta` io.modelcontextprotocol/serverInfo (2026-07-28). */
  readonly name: string;
  readonly version: string;
  /** serverInfo.title. Default none. */
  readonly title?: string;
  /** Guidance for the model (initialize, server/discover). Default none. */
  readonly instructions?: string;
  /** ttlMs/cacheScope on cacheable results (2026-07-28). Default 0 / private. */
  readonly cache?: CacheHints;
  /** Items per page of tools/list, resources/list, prompts/list. Default 100. */
  readonly pageSize?: number;
  /** Advertise `logging`, so ctx.log reaches handshake clients (2026-07-28 clients ask per request). Default false. */
  readonly logging?: boolean;
  /**
   * Arguments that fail a tool's input schema: an isError result naming each JSON pointer and what was allowed
   * (`result`, default: the one rule of every way of writing a server, CatalogSpec.invalidArguments), or
   * -32602 with the same text (`error`).
   */
  readonly invalidArguments?: 'error' | 'result';
  /** What the client reads of an error a function throws: its message (`show`, default) or not (`mask`). McpServerOptions.thrownErrors. */
  readonly thrownErrors?: 'show' | 'mask';
}

/**
 * A schema given in code: a JSON Schema 2020-12 object (write it `as const`, or inline), or a Standard Schema
 * (https://standardschema.dev: Zod 4, Valibot, ArkType…) of an object, which the library converts to JSON
 * Schema for the listing and validates with itself (standard/).
 */
export type CodeSchema = ObjectSchema | StandardSchemaV1;
/** The value a schema gives a function: a Standard Schema's output (after its transforms and defaults), a JSON Schema's {@link FromSchema}. */
export type SchemaOutput<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : FromSchema<S>;

/** A tool: its listing and schemas (see {@link CodeSchema}). */
export interface ToolDefinition<I extends CodeSchema = CodeSchema, O extends CodeSchema | undefined = CodeSchema | undefined> {
  readonly title?: string;
  readonly description?: string;
  /** The arguments' schema (an object). Default `{ "type": "object" }`. */
  readonly input?: I;
  /** The result's schema: the function's value becomes structuredContent (and its JSON text). Default none: the value is text. */
  readonly output?: O;
  readonly annotations?: ToolAnnotations;
  readonly icons?: Icon[];
  readonly _meta?: MetaObject;
}
/**
 * What a tool function returns: what its `output` accepts (a Standard Schema's input type: the library makes
 * the structuredContent of it), or (without `output`) the text (numbers and booleans as text).
 */
export type ToolValue<O> = O extends StandardSchemaV1
  ? StandardSchemaV1.InferInput<O>
  : O extends ObjectSchema
    ? FromSchema<O>
    : string | number | boolean;
export type ToolFunction<Args, Value> = (args: Args, ctx: RequestContext) => Async<Value>;

/** A resource or template: its listing. `name` defaults to the URI. */
export interface ResourceDefinition {
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly icons?: Icon[];
  readonly _meta?: MetaObject;
}
/** The variables of an RFC 6570 URI template (uri-template.ts), by name. */
export type TemplateVariables<U extends string> = keyof UriTemplateVariables<U> & string;
/** A resource reads with the context; a template (a URI with `{variables}`) with the variables a match yields too. */
export type ResourceReader<U extends string> = [TemplateVariables<U>] extends [never]
  ? (ctx: RequestContext) => Async<ResourceBody>
  : (vars: UriTemplateVariables<U>, ctx: RequestContext) => Async<ResourceBody>;

export interface PromptArgumentDefinition {
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
}
/** A prompt's arguments: listed one by one, or a Standard Schema of an object whose properties are the arguments. */
export type PromptArgumentsSchema = readonly PromptArgumentDefinition[] | StandardSchemaV1;
export interface PromptDefinition<A extends PromptArgumentsSchema> {
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: A;
  readonly icons?: Icon[];
  readonly _meta?: MetaObject;
}
/** A prompt's arguments by name: strings, the required ones present; a Standard Schema's output. */
export type PromptArguments<A extends PromptArgumentsSchema> = A extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<A>
  : A extends readonly PromptArgumentDefinition[]
    ? { [E in A[number] as E extends { readonly required: true } ? E['name'] : never]: string } & {
        [E in A[number] as E extends { readonly required: true } ? never : E['name']]?: string;
      }
    : never;

/** Drops the undefined members (`exactOptionalPropertyTypes`): only what was given is listed. */
function defined<T extends object>(fields: T): JsonObject {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** Builds a server one tool, resource and prompt at a time; see the module comment. */
export class McpServerBuilder {
  readonly options: CodeFirstOptions;
  readonly #tools: ToolSpec[] = [];
  readonly #resources: ResourceSpec[] = [];
  readonly #templates: ResourceTemplateSpec[] = [];
  readonly #prompts: PromptSpec[] = [];
  readonly #behaviours = { tools: {}, resources: {}, resourceTemplates: {}, prompts: {} } as {
    tools: Record<string, (args: never, ctx: RequestContext) => unknown>;
    resources: Record<string, (ctx: RequestContext) => Async<ResourceBody>>;
    resourceTemplates: Record<string, (vars: Record<string, string>, ctx: RequestContext) => Async<ResourceBody>>;
    prompts: Record<string, (args: never, ctx: RequestContext) => Async<PromptBody>>;
  };
  readonly #standard: StandardItems = { tools: new Map(), prompts: new Map() };
  #definition: Promise<CatalogDefinition> | undefined;

  constructor(options: CodeFirstOptions) {
    this.options = options;
  }

  #add(kind: string, key: string, taken: readonly JsonObject[], field: string): void {
    if (this.#definition) throw new DefinitionError([`${kind} ${key}: the server is already built; add everything before definition()/build()`]);
    if (taken.some((t) => t[field] === key)) throw new DefinitionError([`${kind} ${key} is defined twice`]);
  }

  /** A tool: `fn`'s arguments are typed by `input` (see {@link SchemaOutput}), its value by `output` (see {@link ToolValue}). */
  tool<const I extends CodeSchema = { readonly type: 'object' }, const O extends CodeSchema | undefined = undefined>(
    name: string,
    definition: ToolDefinition<I, O>,
    fn: ToolFunction<SchemaOutput<I>, ToolValue<O>>,
  ): this;
  /** The escape hatch: the argument and value types given (`tool<Args, Value>(…)`); the schemas still check both at run time. */
  tool<Args = never, Value = never>(name: string, definition: ToolDefinition, fn: ToolFunction<NoInfer<Args>, NoInfer<Value>>): this;
  tool(name: string, definition: ToolDefinition, fn: ToolFunction<never, unknown>): this {
    this.#add('tool', name, this.#tools, 'name');
    const { input, output, ...listing } = definition;
    // A Standard Schema's JSON Schema is derived when the definition is made (standard/derive.ts); until then the
    // spec holds the placeholder of a tool without input.
    const stdInput = isStandardSchema(input) ? input : undefined;
    const stdOutput = isStandardSchema(output) ? output : undefined;
    if (stdInput || stdOutput)
      this.#standard.tools.set(name, { ...(stdInput ? { input: stdInput } : {}), ...(stdOutput ? { output: stdOutput } : {}) });
    this.#tools.push({
      name,
      ...defined(listing),
      inputSchema: (stdInput ? undefined : (input as ObjectSchema | undefined)) ?? { type: 'object' },
      ...(output ? { outputSchema: stdOutput ? { type: 'object' } : (output as ObjectSchema) } : {}),
      output: output ? 'structured' : 'text',
    });
    this.#behaviours.tools[name] = fn;
    return this;
  }

  /** A resource, or a resource template when `uri` has `{variables}` (its reader gets them). */
  resource<const U extends string>(uri: U, definition: ResourceDefinition, read: ResourceReader<U>): this {
    const template = /\{[^}]+\}/.test(uri);
    const { name, ...listing } = definition;
    if (template) {
      parseUriTemplate(uri); // throws UriTemplateError for a URI with braces that is not an RFC 6570 template
      this.#add('resource template', uri, this.#templates, 'uriTemplate');
      this.#templates.push({ uriTemplate: uri, name: name ?? uri, ...defined(listing) });
      // A template's reader takes the variables its URI names (ResourceReader), which matchTemplate extracts.
      this.#behaviours.resourceTemplates[uri] = read as (vars: Record<string, string>, ctx: RequestContext) => Async<ResourceBody>;
    } else {
      this.#add('resource', uri, this.#resources, 'uri');
      this.#resources.push({ uri, name: name ?? uri, ...defined(listing) });
      this.#behaviours.resources[uri] = read as (ctx: RequestContext) => Async<ResourceBody>;
    }
    return this;
  }

  /**
   * A prompt: `render` gets its arguments by name (strings; the required ones are checked present), or, when
   * they are a Standard Schema, the library's output (the arguments listed are its properties: name,
   * description, required).
   */
  prompt<const A extends PromptArgumentsSchema = []>(
    name: string,
    definition: PromptDefinition<A>,
    render: (args: PromptArguments<A>, ctx: RequestContext) => Async<PromptBody>,
  ): this {
    this.#add('prompt', name, this.#prompts, 'name');
    const { arguments: args, ...listing } = definition;
    if (isStandardSchema(args)) this.#standard.prompts.set(name, args);
    const listed = Array.isArray(args) ? { arguments: args.map((a: PromptArgumentDefinition) => defined(a)) } : {};
    this.#prompts.push({ name, ...defined(listing), ...listed });
    this.#behaviours.prompts[name] = render as (args: never, ctx: RequestContext) => Async<PromptBody>;
    return this;
  }

  /**
   * The spec as written (what a sample's YAML would say), before the Standard Schemas are derived: their tools
   * show `{ "type": "object" }` and their prompts no arguments until {@link McpServerBuilder.definition}.
   */
  spec(): CatalogSpec {
    const { options } = this;
    const caps: JsonObject = {
      ...(options.logging ? { logging: {} } : {}),
      ...(this.#prompts.length ? { prompts: {} } : {}),
      ...(this.#resources.length || this.#templates.length ? { resources: {} } : {}),
      ...(this.#tools.length ? { tools: {} } : {}),
    };
    return {
      serverInfo: { name: options.name, version: options.version, ...(options.title !== undefined ? { title: options.title } : {}) },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      capabilities: { handshake: caps, stateless: caps },
      ...(options.cache ? { cache: options.cache } : {}),
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
      ...(options.invalidArguments !== undefined ? { invalidArguments: options.invalidArguments } : {}),
      ...(options.thrownErrors !== undefined ? { thrownErrors: options.thrownErrors } : {}),
      ...(this.#tools.length ? { tools: this.#tools } : {}),
      ...(this.#resources.length ? { resources: this.#resources } : {}),
      ...(this.#templates.length ? { resourceTemplates: this.#templates } : {}),
      ...(this.#prompts.length ? { prompts: this.#prompts } : {}),
    };
  }

  /**
   * The definition (spec, behaviours, validators), made once: every item is checked against the newest
   * revision's Tool/Resource/ResourceTemplate/Prompt and every tool schema compiled (JSON Schema 2020-12). Rejects
   * with a {@link DefinitionError}: one line per problem, naming the item and the JSON pointer of what is wrong.
   */
  definition(): Promise<CatalogDefinition> {
    this.#definition ??= compileDefinition(this.spec(), this.#behaviours satisfies Behaviours, this.#standard);
    return this.#definition;
  }

  /** An McpServer serving the definition (`extra`: more server options, e.g. `log`). */
  async build(extra: Partial<McpServerOptions> = {}): Promise<McpServer> {
    return new McpServer(catalogServerOptions(await this.definition(), extra));
  }

  /** Serves on this process's stdin/stdout until stdin closes and every request is answered. */
  async serveStdio(extra: Partial<McpServerOptions> = {}): Promise<void> {
    const server = await this.build(extra);
    await server.connect(stdioTransport(process.stdin, process.stdout)).finished;
  }
}

/** Starts a code-first server (see the module comment). */
export function mcpServer(options: CodeFirstOptions): McpServerBuilder {
  return new McpServerBuilder(options);
}
