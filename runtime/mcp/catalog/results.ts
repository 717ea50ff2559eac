/**
 * @module mcp/catalog/results — helpers for what a code-first or spec-file tool returns when a string or an
 * object is not enough: images and audio, several content blocks, a resource link, structured JSON without an
 * outputSchema, or an error the model should read without the tool throwing. Each builds the whole
 * CallToolResult ($def CallToolResult, https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result),
 * marked so the catalog sends it as it is instead of turning it into text:
 *
 * ```ts
 * .tool('chart', {}, () => result.image(png, 'image/png'))
 * .tool('find', { input }, ({ id }) => notes.get(id) ?? result.error(`no note ${id}`))
 * ```
 *
 * `blob` makes a resource's binary contents from bytes (base64, $def BlobResourceContents).
 */
import type { CallResult, ContentBlock, ResourceLink } from '@wiregen/mcp-2026-07-28';
import type { JsonObject } from '../../jsonrpc/message.ts';

/** The marker of a built result (a symbol key: not sent, not seen by the schema check). */
const BUILT: unique symbol = Symbol.for('wiregen.toolResult');

/** A whole tools/call result, built by {@link result}: the catalog sends it as it is. */
export type ToolResult = CallResult<'tools/call'> & { readonly [BUILT]: true };

/** Whether a tool's value is a {@link ToolResult}. */
export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && (value as { [BUILT]?: unknown })[BUILT] === true;
}

function built(answer: CallResult<'tools/call'>): ToolResult {
  Object.defineProperty(answer, BUILT, { value: true });
  return answer as ToolResult;
}

/** Base64 through `btoa`, for the fetch-based runtimes without Node's Buffer (a Worker without `nodejs_compat`). */
export function base64Portable(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Base64 of bytes (RFC 4648 §4, padded): Node's Buffer where it exists, since building a binary string for `btoa`
 * costs about 15× more on a 64 KB blob (bench/workloads, `resources/read` of a blob); `btoa` elsewhere. Both
 * write the same text.
 */
export const base64: (bytes: Uint8Array) => string =
  typeof Buffer === 'function' ? (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') : base64Portable;

const data = (bytes: Uint8Array | string) => (typeof bytes === 'string' ? bytes : base64(bytes));

/** Content blocks ($def ContentBlock), for {@link result.content}. */
export const block = {
  text: (text: string): ContentBlock => ({ type: 'text', text }),
  /** `bytes`: raw bytes, or their base64 already. */
  image: (bytes: Uint8Array | string, mimeType: string): ContentBlock => ({ type: 'image', data: data(bytes), mimeType }),
  audio: (bytes: Uint8Array | string, mimeType: string): ContentBlock => ({ type: 'audio', data: data(bytes), mimeType }),
  link: (uri: string, name: string, more: Omit<ResourceLink, 'type' | 'uri' | 'name'> = {}): ContentBlock => ({
    type: 'resource_link',
    uri,
    name,
    ...more,
  }),
};

/** Whole tool results (see the module comment). */
export const result = {
  /** One text block per argument. */
  text: (...texts: string[]): ToolResult => built({ content: texts.map(block.text) }),
  /** `value` as structuredContent and its JSON as text: structured output for a tool with no outputSchema. */
  json: (value: JsonObject): ToolResult => built({ content: [block.text(JSON.stringify(value))], structuredContent: value }),
  image: (bytes: Uint8Array | string, mimeType: string): ToolResult => built({ content: [block.image(bytes, mimeType)] }),
  audio: (bytes: Uint8Array | string, mimeType: string): ToolResult => built({ content: [block.audio(bytes, mimeType)] }),
  link: (uri: string, name: string, more?: Omit<ResourceLink, 'type' | 'uri' | 'name'>): ToolResult =>
    built({ content: [block.link(uri, name, more)] }),
  /** Several blocks in one result. */
  content: (...blocks: ContentBlock[]): ToolResult => built({ content: blocks }),
  /**
   * A tool execution error the model reads ($def CallToolResult, isError: "errors that originate from the tool
   * SHOULD be reported inside the result object"): `message` as it is, shown even with `thrownErrors: 'mask'`,
   * and not logged as a failure with a stack, as a thrown error is (an expected outcome, e.g. an unknown id).
   */
  error: (message: string): ToolResult => built({ content: [block.text(message)], isError: true }),
};

/** A resource's binary contents from bytes ($def BlobResourceContents: base64). */
export function blob(bytes: Uint8Array, mimeType?: string): { blob: string; mimeType?: string } {
  return mimeType === undefined ? { blob: base64(bytes) } : { blob: base64(bytes), mimeType };
}
