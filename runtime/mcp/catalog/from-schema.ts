/**
 * @module mcp/catalog/from-schema — the TypeScript type of the values a JSON Schema (2020-12) written `as const`
 * accepts, for the code-first builder's tool arguments and results: objects (`properties`, `required`,
 * `additionalProperties: false`), `string`, `number`, `integer`, `boolean`, `null`, arrays (`items`), `enum`,
 * `const`, and a `type` list. Anything else (`$ref`, `anyOf`, `oneOf`, `if`…) is `unknown`: the validator
 * compiled from the same schema still checks it at run time.
 */

/** A JSON Schema as the builder takes it (any object; the keywords above are the ones typed). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** An object schema: what MCP requires of a tool's `inputSchema` and `outputSchema` (schema `Tool`). */
export interface ObjectSchema extends JsonSchema {
  readonly type: 'object';
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type FromType<T, S> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? FromSchema<I>[]
            : unknown[]
          : T extends 'object'
            ? FromObject<S>
            : unknown;

type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R & string : never;

type FromObject<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P & RequiredKeys<S>]: FromSchema<P[K]> } & {
        -readonly [K in Exclude<keyof P, RequiredKeys<S>>]?: FromSchema<P[K]>;
      } & (S extends { readonly additionalProperties: false } ? unknown : { [key: string]: unknown })
    >
  : { [key: string]: unknown };

/**
 * The values `S` accepts (see the module comment for what is typed). `const` and `enum` win over `type`; a
 * `type` list is the union of its members; an object with properties keeps an index signature of `unknown`
 * unless `additionalProperties: false` closes it.
 */
export type FromSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: infer T }
      ? T extends readonly (infer U)[]
        ? FromType<U, S>
        : FromType<T, S>
      : unknown;
