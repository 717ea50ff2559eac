/**
 * @module a2a/client-card — the agent card a client reads before it calls (§8.2: /.well-known/agent-card.json):
 * checked before anything is done with it, so that a card the client cannot use is reported as such rather
 * than as a missing credential or an unknown binding later. A card must be JSON, match the pin's AgentCard
 * definition (the generated validator), and name in its `securityRequirements` (the card's and each skill's)
 * only schemes its `securitySchemes` defines (§4.5: a requirement maps scheme names of the card to scopes).
 */
import { pin, validators, type AgentCard, type ValidationError } from '@wiregen/a2a-1.0';
import { A2A_CLIENT_LIMIT_DEFAULTS, type A2aClientLimits, boundedBody, parseBounded } from './client-limits.ts';

const SCHEMA = `A2A ${pin.revision}`;

/** A problem of a card: where (a JSON pointer into it) and why. */
export interface CardProblem {
  readonly pointer: string;
  readonly message: string;
}

/** The agent card at `url` cannot be used; `problems` says where and why, the message names the first. */
export class InvalidAgentCardError extends Error {
  readonly url: string;
  readonly card: unknown;
  readonly problems: readonly CardProblem[];
  constructor(url: string, card: unknown, what: string, problems: readonly CardProblem[]) {
    const [first] = problems;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    super(`agent card at ${url} ${what}${first ? `: ${first.pointer || '(root)'}: ${first.message}${more}` : ''}`);
    this.name = 'InvalidAgentCardError';
    this.url = url;
    this.card = card;
    this.problems = problems;
  }
}

const fromAjv = (errors: readonly ValidationError[] | null | undefined): CardProblem[] =>
  (errors ?? []).map((e) => ({ pointer: e.instancePath, message: e.message ?? e.keyword }));

/** Requirements naming a scheme the card does not define: the card's, then each skill's. */
function undefinedSchemes(card: AgentCard): CardProblem[] {
  const defined = card.securitySchemes ?? {};
  const check = (requirements: AgentCard['securityRequirements'], at: string): CardProblem[] =>
    (requirements ?? []).flatMap((r, i) =>
      Object.keys(r.schemes ?? {})
        .filter((name) => !Object.hasOwn(defined, name))
        .map((name) => ({
          pointer: `${at}/securityRequirements/${i}/schemes/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
          message: `names security scheme ${JSON.stringify(name)}, which /securitySchemes does not define`,
        })),
    );
  return [...check(card.securityRequirements, ''), ...card.skills.flatMap((s, i) => check(s.securityRequirements, `/skills/${i}`))];
}

/** `body` as a card the client can use, else an {@link InvalidAgentCardError} naming where it is not. */
export function acceptCard(url: string, body: unknown): AgentCard {
  if (!validators.AgentCard(body))
    throw new InvalidAgentCardError(url, body, `is not a valid ${SCHEMA} AgentCard`, fromAjv(validators.AgentCard.errors));
  const unknown = undefinedSchemes(body);
  if (unknown.length) throw new InvalidAgentCardError(url, body, 'cannot be used', unknown);
  return body;
}

/** Where the card of the agent at `baseUrl` is (§8.2). */
export function cardUrl(baseUrl: string): string {
  return new URL('/.well-known/agent-card.json', baseUrl).href;
}

/**
 * Reads the card of the agent at `baseUrl` and checks it (acceptCard); an HTTP failure is returned as the
 * response. The card is read within the client's limits (client-limits.ts): a larger or deeper one is a
 * LimitExceeded, bytes that are not UTF-8 a BodyEncodingError.
 */
export async function readCard(
  baseUrl: string,
  get: typeof fetch,
  headers: Record<string, string>,
  limits: Required<A2aClientLimits> = A2A_CLIENT_LIMIT_DEFAULTS,
): Promise<AgentCard | Response> {
  const url = cardUrl(baseUrl);
  const res = await get(url, { headers });
  if (!res.ok) return res;
  const text = await boundedBody(res, limits);
  let body: unknown;
  try {
    body = parseBounded(text, limits);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new InvalidAgentCardError(url, text, 'is not JSON', []);
  }
  return acceptCard(url, body);
}
