/**
 * @module sdk/resource-template — the SDK's `ResourceTemplate`: an RFC 6570 URI template
 * (https://www.rfc-editor.org/rfc/rfc6570) with an optional `list` callback (its instances, merged into
 * resources/list) and `complete` callbacks per variable (completion/complete on `ref/resource`). Matching and
 * parsing are wiregen's (mcp/catalog/uri-template.ts).
 */
import { matchTemplate, parseUriTemplate, uriTemplateVariables } from '../mcp/catalog/uri-template.ts';
import type { ServerContext } from './context.ts';
import type { ListResourcesResult, Variables } from './registry.ts';

export type ListResourcesCallback = (ctx: ServerContext) => ListResourcesResult | Promise<ListResourcesResult>;
export type CompleteResourceTemplateCallback = (value: string, context?: { arguments?: Record<string, string> }) => string[] | Promise<string[]>;

/** The parsed template, as the SDK's `UriTemplate` is read: its text, its variables, a match. */
export class UriTemplate {
  readonly #template: string;
  constructor(template: string) {
    parseUriTemplate(template); // throws UriTemplateError for a string that is not an RFC 6570 template
    this.#template = template;
  }
  get variableNames(): string[] {
    return uriTemplateVariables(this.#template).map((v) => v.name);
  }
  match(uri: string): Variables | null {
    return matchTemplate(this.#template, uri) ?? null;
  }
  toString(): string {
    return this.#template;
  }
}

export class ResourceTemplate {
  readonly #template: UriTemplate;
  readonly #callbacks: { list: ListResourcesCallback | undefined; complete?: Record<string, CompleteResourceTemplateCallback> };

  constructor(
    uriTemplate: string | UriTemplate,
    callbacks: { list: ListResourcesCallback | undefined; complete?: Record<string, CompleteResourceTemplateCallback> },
  ) {
    this.#template = typeof uriTemplate === 'string' ? new UriTemplate(uriTemplate) : uriTemplate;
    this.#callbacks = callbacks;
  }
  get uriTemplate(): UriTemplate {
    return this.#template;
  }
  get listCallback(): ListResourcesCallback | undefined {
    return this.#callbacks.list;
  }
  completeCallback(variable: string): CompleteResourceTemplateCallback | undefined {
    return this.#callbacks.complete?.[variable];
  }
}
