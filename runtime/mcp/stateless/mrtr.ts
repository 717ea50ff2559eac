/**
 * @module mcp/stateless/mrtr — multi round-trip requests (MCP 2026-07-28,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/mrtr): what `ctx.input` gets in
 * this era. The answers the retry carries in its inputResponses, each checked against the revision's result
 * schema (server/elicit-answer.ts), or, for those still missing, the {@link InputRequired} signal that ends
 * the round (server/run.ts makes it the input_required result, stateless/input-required.ts checks it).
 */
import { ErrorCode, isObject, JsonRpcError, type JsonObject } from '../../jsonrpc/message.ts';
import type { Revision } from '../revisions.ts';
import { answerMatches } from '../server/elicit-answer.ts';
import type { WireInputRequest } from '../server/types.ts';

/** Raised inside a handler (through ctx.input) to end this round with an input_required result. */
export class InputRequired {
  readonly requests: Readonly<Record<string, WireInputRequest>>;
  constructor(requests: Readonly<Record<string, WireInputRequest>>) {
    this.requests = requests;
  }
}

/** The answers a retry carries for `requests`, or the InputRequired signal for those still missing. */
export function answersFor(
  requests: Readonly<Record<string, WireInputRequest>>,
  responses: JsonObject,
  revision: Revision,
): Record<string, JsonObject> {
  const missing: Record<string, WireInputRequest> = {};
  const answers: Record<string, JsonObject> = {};
  for (const [key, request] of Object.entries(requests)) {
    const answer = responses[key];
    if (!isObject(answer)) {
      missing[key] = request;
      continue;
    }
    if (!answerMatches(request, answer, revision.lookup(request.method)?.result))
      throw new JsonRpcError(ErrorCode.InvalidParams, `inputResponses.${key} is not a valid ${request.method} result`);
    answers[key] = answer;
  }
  if (Object.keys(missing).length) throw new InputRequired(missing);
  return answers;
}
