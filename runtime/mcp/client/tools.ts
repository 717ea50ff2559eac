/**
 * @module mcp/client/tools — what an McpClient keeps of the server's tools: the last full tools/list (for the
 * Mcp-Param-* headers of a call and its output schema), a call refused when a tool's `x-mcp-header`
 * annotations are invalid (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports), and the
 * check of a result's structuredContent against the tool's outputSchema, as the official SDK makes it.
 */
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { Tool } from '@wiregen/mcp-2026-07-28';
import { ErrorCode, isObject, type JsonObject } from '../../jsonrpc/message.ts';
import { McpClientError } from './errors.ts';
import { headerAnnotations } from '../http/headers.ts';

export class ServerTools {
  readonly #list: () => Promise<unknown>;
  readonly #loadAjv: () => Promise<Ajv2020>;
  #tools: Map<string, Tool> | undefined;
  /** ajv, loaded the first time a structuredContent needs checking (servers and most calls never do). */
  #ajv: Promise<Ajv2020> | undefined;
  /** Each outputSchema compiled once; null when ajv cannot compile it. */
  readonly #outputChecks = new WeakMap<object, ValidateFunction | null>();

  /**
   * `list` asks the server for its tools (the client's tools/list, which hands the result to {@link remember});
   * `loadAjv` makes the ajv instance output schemas are compiled with, the first time one is needed.
   */
  constructor(list: () => Promise<unknown>, loadAjv: () => Promise<Ajv2020>) {
    this.#list = list;
    this.#loadAjv = loadAjv;
  }

  /** The tools the server listed, by name; undefined before a tools/list or after notifications/tools/list_changed. */
  get listed(): ReadonlyMap<string, Tool> | undefined {
    return this.#tools;
  }

  forget(): void {
    this.#tools = undefined;
  }

  remember(result: JsonObject): void {
    // call() checked the result against the revision's ListToolsResult: each is a Tool.
    const tools = Array.isArray(result['tools']) ? (result['tools'] as Tool[]) : [];
    this.#tools = new Map(tools.map((t) => [String(t.name), t]));
  }

  /** A tool whose x-mcp-header annotations are invalid is never called. */
  refuseInvalidHeaders(name: string): void {
    const schema = this.#tools?.get(name)?.['inputSchema'];
    const { problems } = headerAnnotations(isObject(schema) ? schema : undefined);
    if (problems.length) throw new McpClientError(ErrorCode.InvalidParams, `tool ${name} is not called: ${problems.join('; ')}`);
  }

  /**
   * After a tool result with structuredContent: list the tools if not yet (the SDK does), and check the
   * content against the tool's outputSchema. Remote `$ref`s are never fetched: such a schema is not checked.
   */
  async checkStructured(name: string, result: JsonObject): Promise<void> {
    if (!this.#tools) await this.#list();
    const schema = this.#tools?.get(name)?.['outputSchema'];
    if (!isObject(schema)) return;
    let validate = this.#outputChecks.get(schema);
    if (validate === undefined) {
      this.#ajv ??= this.#loadAjv();
      const ajv = await this.#ajv;
      try {
        validate = ajv.compile(schema);
      } catch {
        validate = null; // a schema ajv cannot compile without fetching something (a remote $ref) goes unchecked
      }
      this.#outputChecks.set(schema, validate);
    }
    if (validate && !validate(result['structuredContent']))
      throw new McpClientError(ErrorCode.InvalidParams, `tool ${name}: structuredContent does not match its outputSchema`, validate.errors);
  }
}
