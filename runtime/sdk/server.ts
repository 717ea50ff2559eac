/**
 * @module sdk/server — the SDK v2's `McpServer` (`new McpServer(serverInfo, { capabilities?, instructions? })`,
 * `registerTool`, `registerResource`, `registerPrompt`, the handles they return, `send*ListChanged`,
 * `connect(transport)`), served by wiregen's McpServer (mcp/server/server.ts): the registrations are data
 * (registry.ts) that the handlers (handlers.ts) answer from.
 */
import type { Icon, Implementation, ToolAnnotations } from '@wiregen/mcp-2026-07-28';
import type { JsonObject } from '../jsonrpc/message.ts';
import { McpServer as WireServer } from '../mcp/server/server.ts';
import type { McpServerOptions as WireOptions, Open } from '../mcp/server/types.ts';
import type { Transport as WireTransport } from '../transports/transport.ts';
import { offersCompletions } from './completion.ts';
import { derivedInput, sdkHandlers, schemaJson, type HttpOf, type RegistryOf } from './handlers.ts';
import {
  applyUpdate,
  moveEntry,
  type AnyPromptCallback,
  type AnyToolCallback,
  type ReadResourceCallback,
  type ReadResourceTemplateCallback,
  type RegisteredPrompt,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type RegisteredTool,
  type PromptCallback,
  type Registry,
  type ResourceMetadata,
  type ToolCallback,
} from './registry.ts';
import { ResourceTemplate } from './resource-template.ts';
import type { StandardSchemaWithJSON } from './schema.ts';
import { toWireTransport, type Transport } from './transport.ts';

export interface McpServerOptions {
  /** Capabilities advertised beside those the registrations imply (e.g. `logging: {}`). */
  readonly capabilities?: JsonObject;
  /** Guidance for the model (initialize, server/discover). */
  readonly instructions?: string;
}

export interface ToolConfig<I, O> {
  title?: string;
  description?: string;
  inputSchema?: I;
  outputSchema?: O;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
}
export interface PromptConfig<A> {
  title?: string;
  description?: string;
  argsSchema?: A;
  icons?: Icon[];
  _meta?: JsonObject;
}

export class McpServer {
  readonly serverInfo: Implementation;
  readonly options: McpServerOptions;
  /** What is registered, as the handlers read it. */
  readonly registry: Registry = { tools: new Map(), resources: new Map(), templates: new Map(), prompts: new Map() };
  #wire: WireServer | undefined;
  #transport: WireTransport | undefined;

  constructor(serverInfo: Implementation, options: McpServerOptions = {}) {
    this.serverInfo = serverInfo;
    this.options = options;
  }

  registerTool<I extends StandardSchemaWithJSON | undefined = undefined, O extends StandardSchemaWithJSON | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    cb: ToolCallback<I>,
  ): RegisteredTool {
    if (this.registry.tools.has(name)) throw new Error(`Tool ${name} is already registered`);
    const { inputSchema, outputSchema, ...listing } = config;
    let key = name;
    const tool: RegisteredTool = {
      ...listing,
      ...(inputSchema ? { inputSchema } : {}),
      ...(outputSchema ? { outputSchema } : {}),
      handler: cb as AnyToolCallback,
      enabled: true,
      enable: () => tool.update({ enabled: true }),
      disable: () => tool.update({ enabled: false }),
      remove: () => tool.update({ name: null }),
      update: (u) =>
        applyUpdate(
          tool,
          u,
          {
            title: 'title',
            description: 'description',
            paramsSchema: 'inputSchema',
            outputSchema: 'outputSchema',
            annotations: 'annotations',
            icons: 'icons',
            _meta: '_meta',
            callback: 'handler',
          },
          (to) => (key = moveEntry(this.registry.tools, key, to)),
          () => this.sendToolListChanged(),
        ),
    };
    this.registry.tools.set(name, tool);
    this.sendToolListChanged();
    return tool;
  }

  registerResource(name: string, uri: string, config: ResourceMetadata, cb: ReadResourceCallback): RegisteredResource;
  registerResource(name: string, template: ResourceTemplate, config: ResourceMetadata, cb: ReadResourceTemplateCallback): RegisteredResourceTemplate;
  registerResource(
    name: string,
    uriOrTemplate: string | ResourceTemplate,
    config: ResourceMetadata,
    cb: ReadResourceCallback | ReadResourceTemplateCallback,
  ): RegisteredResource | RegisteredResourceTemplate {
    const changed = () => this.sendResourceListChanged();
    if (typeof uriOrTemplate === 'string') {
      if (this.registry.resources.has(uriOrTemplate)) throw new Error(`Resource ${uriOrTemplate} is already registered`);
      let key = uriOrTemplate;
      const resource: RegisteredResource = {
        name,
        ...(config.title !== undefined ? { title: config.title as string } : {}),
        metadata: config,
        readCallback: cb as ReadResourceCallback,
        enabled: true,
        enable: () => resource.update({ enabled: true }),
        disable: () => resource.update({ enabled: false }),
        remove: () => resource.update({ uri: null }),
        update: (u) => {
          if (u.uri !== undefined) key = moveEntry(this.registry.resources, key, u.uri);
          applyUpdate(resource, u, { title: 'title', metadata: 'metadata', callback: 'readCallback' }, () => undefined, changed);
          if (u.name !== undefined) resource.name = u.name;
        },
      };
      this.registry.resources.set(uriOrTemplate, resource);
      changed();
      return resource;
    }
    if (this.registry.templates.has(name)) throw new Error(`Resource template ${name} is already registered`);
    let key = name;
    const template: RegisteredResourceTemplate = {
      resourceTemplate: uriOrTemplate,
      ...(config.title !== undefined ? { title: config.title as string } : {}),
      metadata: config,
      readCallback: cb as ReadResourceTemplateCallback,
      enabled: true,
      enable: () => template.update({ enabled: true }),
      disable: () => template.update({ enabled: false }),
      remove: () => template.update({ name: null }),
      update: (u) =>
        applyUpdate(
          template,
          u,
          { title: 'title', template: 'resourceTemplate', metadata: 'metadata', callback: 'readCallback' },
          (to) => (key = moveEntry(this.registry.templates, key, to)),
          changed,
        ),
    };
    this.registry.templates.set(name, template);
    changed();
    return template;
  }

  registerPrompt<A extends StandardSchemaWithJSON | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    cb: PromptCallback<A>,
  ): RegisteredPrompt {
    if (this.registry.prompts.has(name)) throw new Error(`Prompt ${name} is already registered`);
    const { argsSchema, ...listing } = config;
    let key = name;
    const prompt: RegisteredPrompt = {
      ...listing,
      ...(argsSchema ? { argsSchema } : {}),
      callback: cb as AnyPromptCallback,
      enabled: true,
      enable: () => prompt.update({ enabled: true }),
      disable: () => prompt.update({ enabled: false }),
      remove: () => prompt.update({ name: null }),
      update: (u) =>
        applyUpdate(
          prompt,
          u,
          { title: 'title', description: 'description', argsSchema: 'argsSchema', icons: 'icons', _meta: '_meta', callback: 'callback' },
          (to) => (key = moveEntry(this.registry.prompts, key, to)),
          () => this.sendPromptListChanged(),
        ),
    };
    this.registry.prompts.set(name, prompt);
    this.sendPromptListChanged();
    return prompt;
  }

  /** notifications/tools/list_changed to the connected client (a no-op before `connect`). */
  sendToolListChanged(): void {
    this.#wire?.listChanged('tools');
  }
  sendResourceListChanged(): void {
    this.#wire?.listChanged('resources');
  }
  sendPromptListChanged(): void {
    this.#wire?.listChanged('prompts');
  }
  /** notifications/resources/updated to the clients subscribed to `uri`. */
  sendResourceUpdated(params: { uri: string }): void {
    this.#wire?.resourceUpdated(params.uri);
  }

  isConnected(): boolean {
    return this.#transport !== undefined;
  }

  /** Serves one client over `transport` (the SDK's transports: stdio, in-memory, any with its Transport shape). */
  async connect(transport: Transport): Promise<void> {
    if (this.#transport) throw new Error('Already connected to a transport');
    await this.prepare();
    this.#transport = toWireTransport(transport);
    this.#wire = new WireServer(this.wireOptions(() => this.registry));
    this.#wire.connect(this.#transport);
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    this.#transport?.close();
    this.#transport = undefined;
    this.#wire?.shutdown();
  }

  /**
   * Derives every registered schema's JSON Schema now, so that what is read synchronously is there and a
   * schema that cannot be derived fails at start (a TypeError naming the item) rather than at tools/list.
   */
  async prepare(): Promise<this> {
    const jobs: Promise<unknown>[] = [];
    for (const [name, t] of this.registry.tools) {
      if (t.inputSchema) jobs.push(schemaJson(t.inputSchema, 'input', `tool ${name}`));
      if (t.outputSchema) jobs.push(schemaJson(t.outputSchema, 'output', `tool ${name}`));
    }
    for (const [name, p] of this.registry.prompts) if (p.argsSchema) jobs.push(schemaJson(p.argsSchema, 'input', `prompt ${name}`));
    await Promise.all(jobs);
    return this;
  }

  /** Announces list changes through `wire` (a server that serves this one's registry, e.g. over stdio). */
  attach(wire: WireServer): void {
    this.#wire = wire;
  }

  /**
   * wiregen McpServer options serving this server's identity and capabilities, its requests answered from
   * `registryOf` (this registry, or one built per request). The capabilities are what is registered now, as
   * the SDK advertises them (`listChanged: true` for each kind registered, `completions` for completable
   * arguments), plus those the options give.
   */
  wireOptions(registryOf: RegistryOf, httpOf: HttpOf = () => undefined, extra: Partial<WireOptions> = {}): WireOptions {
    const r = this.registry;
    const caps: JsonObject = { ...this.options.capabilities };
    if (r.tools.size) caps['tools'] = { listChanged: true, ...(caps['tools'] as JsonObject | undefined) };
    if (r.resources.size || r.templates.size) caps['resources'] = { listChanged: true, ...(caps['resources'] as JsonObject | undefined) };
    if (r.prompts.size) caps['prompts'] = { listChanged: true, ...(caps['prompts'] as JsonObject | undefined) };
    if (offersCompletions(r)) caps['completions'] = {};
    return {
      serverInfo: this.serverInfo as Open<Implementation>,
      ...(this.options.instructions !== undefined ? { instructions: this.options.instructions } : {}),
      capabilities: { handshake: caps, stateless: caps },
      handlers: sdkHandlers(registryOf, httpOf),
      // The Mcp-Param-* header check (HTTP) reads a tool's inputSchema synchronously: derived by `prepare`.
      toolInputSchema: (name) => {
        const schema = r.tools.get(name)?.inputSchema;
        return schema ? derivedInput(schema) : undefined;
      },
      ...extra,
    };
  }
}

export { ResourceTemplate };
