/**
 * @module mcp/catalog/standard/elicit — `ctx.elicit(message, schema)`: a form elicitation
 * (https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#form-mode-elicitation-requests)
 * whose `requestedSchema` is a JSON Schema object or derived from a Standard Schema (its input side: what the
 * user fills in), and whose accepted `content` comes back as the schema's value (a Standard Schema's output,
 * validated by its library). It is one `ctx.input` (RequestContext), so it works in both eras: the handshake
 * era sends elicitation/create and waits; 2026-07-28 ends the round with input_required and the retry carries
 * the answer under the same key.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonObject } from '../../../jsonrpc/message.ts';
import type { ElicitRequestFormParams } from '@wiregen/mcp-2026-07-28';
import { LATEST_STATELESS, requireRevision } from '../../revisions.ts';
import { schemaReason, type SchemaError } from '../../server/errors.ts';
import type { ElicitAnswer, ElicitSchema, RequestContext } from '../../server/types.ts';
import { deriveJsonSchema, isStandardSchema } from './json-schema.ts';
import { describeFailure } from './validate.ts';

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];

/** The forms made once per schema object (a 2026-07-28 handler runs again on each round). */
const forms = new WeakMap<object, RequestedSchema>();

/**
 * The form of a schema, checked against the newest revision's $def ElicitRequestFormParams: "a restricted
 * subset of JSON Schema. Only top-level properties are allowed, without nesting" (each a
 * PrimitiveSchemaDefinition: string, number, integer, boolean, enum, array of enum). Throws one line naming
 * the JSON pointer of what does not fit.
 */
async function formOf(message: string, schema: ElicitSchema): Promise<RequestedSchema> {
  const known = forms.get(schema);
  if (known) return known;
  let requested: JsonObject;
  if (isStandardSchema(schema)) {
    const derived = await deriveJsonSchema(schema, 'input');
    if ('problem' in derived) throw new Error(`elicit: /requestedSchema: ${derived.problem}`);
    requested = derived.schema;
  } else requested = schema as JsonObject;
  const latest = await requireRevision(LATEST_STATELESS);
  const check = latest.validators['ElicitRequestFormParams']!;
  if (!check({ mode: 'form', message, requestedSchema: requested })) {
    const first = (check.errors ?? [])[0] as SchemaError | undefined;
    const where = first?.instancePath || '(root)';
    throw new Error(
      `elicit: ${where}: not a form MCP ${latest.version} allows (ElicitRequestFormParams: an object of string, number, integer, boolean or enum properties): ${first ? schemaReason(first) : 'is invalid'}`,
    );
  }
  forms.set(schema, requested as RequestedSchema);
  return requested as RequestedSchema;
}

/**
 * Asks the user to fill in the form of `schema` (`key`: the input's key, the same on every round). An accepted
 * answer's content was checked against the form by the runtime (elicit-answer.ts); a Standard Schema then
 * validates it with its library and gives its output, or the call throws naming what does not match.
 */
export async function elicitForm<S extends ElicitSchema>(
  ctx: Pick<RequestContext, 'input' | 'protocolVersion'>,
  key: string,
  message: string,
  schema: S,
): Promise<ElicitAnswer<S>> {
  const requestedSchema = await formOf(message, schema);
  // `mode` is 2025-11-25's (URL mode came then); before it every elicitation is a form, and its params have no mode.
  const mode = ctx.protocolVersion >= '2025-11-25' ? { mode: 'form' as const } : {};
  const answer = await ctx.input(key, { method: 'elicitation/create', params: { ...mode, message, requestedSchema } });
  if (answer.action !== 'accept') return { action: answer.action } as ElicitAnswer<S>;
  const content = answer.content ?? {};
  if (!isStandardSchema(schema)) return { action: 'accept', content } as ElicitAnswer<S>;
  let result = (schema as StandardSchemaV1)['~standard'].validate(content);
  if (result instanceof Promise) result = await result;
  if (result.issues) throw new Error(`elicit: the answer does not match the form: ${describeFailure(result.issues)}`);
  return { action: 'accept', content: result.value } as ElicitAnswer<S>;
}
