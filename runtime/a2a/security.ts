/**
 * @module a2a/security — the server side of an agent card's security (https://a2a-protocol.org/latest/specification/,
 * §4.5 Security Objects, §7.4 Server Authentication Responsibilities: the server MUST authenticate every request
 * against its declared requirements). The card's `securityRequirements` are checked on both bindings by the
 * verifiers the agent is given (`A2aServerOptions.verifiers`) or by its own `authenticate`; every HTTP adapter
 * resolves which one through {@link authenticationFor}, and refuses to start when the card requires a scheme
 * and nothing can check it. The public card (/.well-known/agent-card.json) is never behind it: clients read it
 * to learn what to present (§7.3 step 1, §8.2, §14.3); GetExtendedAgentCard is (§3.1.11, §13.3).
 *
 * No OAuth library is loaded here: a bearer token is handed to the verifier as it came (`jwtVerifier` and
 * `protectedResource` of @wiregen/runtime/auth are verifiers, loaded only by who uses them).
 */
import type { AgentCard, SecurityScheme } from '@wiregen/a2a-1.0';
import { formatChallenge, scopeList } from '../auth/challenge.ts';
import { AuthError } from '../auth/errors.ts';
import { authInfo, type AuthInfo } from '../auth/info.ts';
import type { Authenticate, AuthRequest } from './http-options.ts';

type Awaitable<T> = T | Promise<T>;

/**
 * What a bearer verifier says a token grants: its scopes, and who it speaks for (`TokenInfo` of
 * @wiregen/runtime/auth, what `jwtVerifier` resolves with, is one). The executor reads it as `ctx.auth`.
 */
export interface BearerGrant {
  readonly scopes?: readonly string[];
  readonly subject?: string;
  readonly clientId?: string;
  /** Epoch seconds. */
  readonly expiresAt?: number;
  /** The token's claims (a JWT payload, an introspection response). */
  readonly claims?: Readonly<Record<string, unknown>>;
}

/**
 * Checks a bearer token: true (or what it grants, a {@link BearerGrant}) to accept it, false to refuse it, or
 * throw an AuthError('invalid-token', why) to refuse it with a reason. `jwtVerifier` of @wiregen/runtime/auth
 * is one. Compare secrets in constant time (node:crypto timingSafeEqual of digests).
 */
export type BearerVerifier = (token: string) => Awaitable<boolean | BearerGrant>;
/** Whether an API key is valid for the card's scheme `name`. */
export type ApiKeyVerifier = (key: string, name: string) => Awaitable<boolean>;

/** What checks the credentials of the card's security schemes, by the kind of credential. */
export interface A2aVerifiers {
  /** For `httpAuthSecurityScheme` bearer, `oauth2SecurityScheme` and `openIdConnectSecurityScheme`: the token of `Authorization: Bearer`. */
  readonly bearer?: BearerVerifier;
  /** For `apiKeySecurityScheme`: the key from the header, query parameter or cookie the scheme names. */
  readonly apiKey?: ApiKeyVerifier;
}

/** A scheme's kind, by the member of the SecurityScheme oneof it sets (HTTP auth split into bearer and basic). */
export type SchemeKind = 'bearer' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'basic' | 'mtls' | 'unknown';

export function kindOf(scheme: SecurityScheme): SchemeKind {
  if (scheme.apiKeySecurityScheme) return 'apiKey';
  if (scheme.httpAuthSecurityScheme) return scheme.httpAuthSecurityScheme.scheme.toLowerCase() === 'bearer' ? 'bearer' : 'basic';
  if (scheme.oauth2SecurityScheme) return 'oauth2';
  if (scheme.openIdConnectSecurityScheme) return 'openIdConnect';
  if (scheme.mtlsSecurityScheme) return 'mtls';
  return 'unknown';
}

/** The verifier that checks a scheme of `kind` (OAuth 2 and OpenID Connect present bearer tokens, RFC 6750); none for basic and mTLS. */
function verifierOf(kind: SchemeKind): keyof A2aVerifiers | undefined {
  return kind === 'apiKey' ? 'apiKey' : kind === 'bearer' || kind === 'oauth2' || kind === 'openIdConnect' ? 'bearer' : undefined;
}

/** The card's requirements as (scheme name → scopes) maps, in order; none means the agent is public. */
export function requirementsOf(card: AgentCard): Record<string, readonly string[]>[] {
  return (card.securityRequirements ?? []).map((r) =>
    Object.fromEntries(Object.entries(r.schemes ?? {}).map(([name, list]) => [name, list.list ?? []])),
  );
}

export function schemeOf(card: AgentCard, name: string): SecurityScheme {
  const scheme = card.securitySchemes?.[name];
  if (!scheme)
    throw new AuthError('configuration', `agent card ${card.name}: securityRequirements names ${name}, which securitySchemes does not define`);
  return scheme;
}

function apiKeyOf(req: AuthRequest, location: string, param: string): string | undefined {
  if (location === 'query') return new URL(req.url ?? '/', 'http://localhost').searchParams.get(param) ?? undefined;
  if (location === 'cookie') {
    const cookies = String(req.headers['cookie'] ?? '').split(/;\s*/);
    const found = cookies.find((c) => c.startsWith(`${param}=`));
    return found === undefined ? undefined : decodeURIComponent(found.slice(param.length + 1));
  }
  const value = req.headers[param.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The `authenticate` that enforces the card's `securityRequirements` on both bindings: a request passes when
 * one requirement's schemes all pass (bearer tokens by `verifiers.bearer`, with the requirement's scopes; API
 * keys by `verifiers.apiKey`). A refusal is a `Bearer realm="<card name>"` challenge (RFC 6750 §3), with
 * `error="invalid_token"` or `"insufficient_scope"` when a credential was presented. A scheme it cannot check
 * (HTTP basic, mutual TLS) or has no verifier for is an AuthError('configuration') here, before any request.
 */
export function a2aAuthenticate(card: AgentCard, verifiers: A2aVerifiers): Authenticate {
  const requirements = requirementsOf(card);
  const missing = missingVerifier(card, verifiers);
  if (missing) throw new AuthError('configuration', missing);
  const realm = card.name;
  /** Checks one scheme; a bearer token that passes is returned as who is calling. */
  const checkScheme = async (req: AuthRequest, name: string, scopes: readonly string[]): Promise<AuthInfo | undefined> => {
    const scheme = schemeOf(card, name);
    if (verifierOf(kindOf(scheme)) === 'apiKey') {
      const { location, name: param } = scheme.apiKeySecurityScheme!;
      const key = apiKeyOf(req, location, param);
      if (key === undefined) throw new AuthError('invalid-token', `no API key (${location} ${param})`);
      if (!(await verifiers.apiKey!(key, name))) throw new AuthError('invalid-token', `the API key for ${name} is not valid`);
      return undefined;
    }
    const header = req.headers['authorization'];
    const token = /^Bearer +(\S+)$/i.exec(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''))?.[1];
    if (!token) throw new AuthError('invalid-token', 'no bearer token');
    const verdict = await verifiers.bearer!(token);
    if (verdict === false) throw new AuthError('invalid-token', `the token is not valid for ${name}`);
    const grant: BearerGrant = verdict === true ? {} : verdict;
    const granted = grant.scopes ?? [];
    const lacking = scopes.filter((s) => !granted.includes(s));
    if (lacking.length) throw new AuthError('insufficient-scope', `the token lacks scope ${lacking.join(' ')}`);
    const { subject, clientId, expiresAt } = grant;
    return authInfo(token, {
      scopes: granted,
      claims: grant.claims ?? {},
      ...(subject !== undefined ? { subject } : {}),
      ...(clientId !== undefined ? { clientId } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    });
  };
  return async (req) => {
    if (!requirements.length) return { ok: true };
    let refusal: AuthError | undefined;
    for (const requirement of requirements) {
      try {
        let auth: AuthInfo | undefined;
        for (const [name, scopes] of Object.entries(requirement)) auth = (await checkScheme(req, name, scopes)) ?? auth;
        return auth ? { ok: true, auth } : { ok: true };
      } catch (err) {
        if (!(err instanceof AuthError) || err.check === 'configuration') throw err;
        // The most telling refusal: a presented-but-rejected credential over a missing one.
        if (!refusal || (refusal.message.startsWith('no ') && !err.message.startsWith('no '))) refusal = err;
      }
    }
    const presented = refusal && !refusal.message.startsWith('no ');
    const scope = [...new Set(requirements.flatMap((r) => Object.values(r).flat()))];
    return {
      ok: false,
      challenge: formatChallenge('Bearer', {
        realm,
        ...(scope.length ? { scope: scopeList(scope.join(' ')).join(' ') } : {}),
        ...(presented
          ? { error: refusal!.check === 'insufficient-scope' ? 'insufficient_scope' : 'invalid_token', error_description: refusal!.message }
          : {}),
      }),
    };
  };
}

/** What to give for a scheme no verifier can check, as the start-up error says it. */
const OWN_CHECK: Partial<Record<SchemeKind, string>> = {
  basic: 'verifiers do not check HTTP basic: ',
  mtls: 'verifiers do not check mutual TLS (the TLS layer does): ',
};
const REMEDY: Record<keyof A2aVerifiers, string> = {
  bearer: 'pass verifiers: { bearer: (token) => … } (a function of yours, or jwtVerifier of @wiregen/runtime/auth)',
  apiKey: 'pass verifiers: { apiKey: (key, scheme) => … }',
};

/**
 * The first scheme the card's requirements name that `verifiers` cannot check, as one line (the agent, the
 * scheme, where the card declares it, what to give); undefined when every one can be checked.
 */
function missingVerifier(card: AgentCard, verifiers: A2aVerifiers): string | undefined {
  const agent = `agent ${JSON.stringify(card.name)}`;
  for (const [i, requirement] of requirementsOf(card).entries())
    for (const name of Object.keys(requirement)) {
      const scheme = card.securitySchemes?.[name];
      if (!scheme)
        return `${agent}: card.securityRequirements[${i}] names security scheme ${JSON.stringify(name)}, which card.securitySchemes does not define`;
      const kind = kindOf(scheme);
      const needed = verifierOf(kind);
      if (needed && verifiers[needed]) continue;
      const declared = `${agent} declares security scheme ${JSON.stringify(name)} (card.securitySchemes.${name})`;
      if (!needed)
        return `${declared}, which no verifier checks: ${OWN_CHECK[kind] ?? ''}pass http: { authenticate: (req) => … }, a check of your own, to createAgent or A2aServer`;
      return `${declared} but no ${needed === 'bearer' ? 'bearer' : 'API key'} verifier was given: ${REMEDY[needed]} to createAgent or A2aServer`;
    }
  return undefined;
}

/**
 * How an HTTP adapter authenticates the agent's requests (every A2A method; never the public card): the
 * adapter's own `authenticate`, else the agent's (`A2aServerOptions.http.authenticate`), else its card's
 * requirements checked by its `verifiers`; none when the card requires nothing. A card that requires a scheme
 * nothing given can check is an AuthError('configuration') whose message is one line naming the scheme: the
 * adapter does not start (an agent that declares security and serves without it would answer anyone).
 */
export function authenticationFor(
  card: AgentCard,
  given: { readonly adapter?: Authenticate | undefined; readonly agent?: Authenticate | undefined; readonly verifiers?: A2aVerifiers | undefined },
): Authenticate | undefined {
  const own = given.adapter ?? given.agent;
  if (own) return own;
  if (!card.securityRequirements?.length) return undefined;
  return a2aAuthenticate(card, given.verifiers ?? {});
}

// ---- types ---------------------------------------------------------------------------------------------------

/** The names of the schemes a card type's `securityRequirements` name. */
type RequiredNames<C> = C extends { readonly securityRequirements: readonly (infer R)[] }
  ? R extends { readonly schemes: infer S }
    ? keyof S & string
    : never
  : never;
type SchemeNamed<C, N> = C extends { readonly securitySchemes: infer M } ? (N extends keyof M ? M[N] : never) : never;
/** The verifier a scheme type is checked by; never for one verifiers cannot check (HTTP basic, mutual TLS). */
type VerifierFor<S> = S extends { readonly apiKeySecurityScheme: object }
  ? 'apiKey'
  : S extends { readonly httpAuthSecurityScheme: { readonly scheme: infer X extends string } }
    ? Lowercase<X> extends 'bearer'
      ? 'bearer'
      : never
    : S extends { readonly oauth2SecurityScheme: object } | { readonly openIdConnectSecurityScheme: object }
      ? 'bearer'
      : never;
type Verifiers<C> = { [N in RequiredNames<C>]: VerifierFor<SchemeNamed<C, N>> };
/** True when a required scheme is one verifiers cannot check. */
type Unverifiable<C> = true extends { [N in RequiredNames<C>]: [Verifiers<C>[N]] extends [never] ? true : false }[RequiredNames<C>] ? true : false;

/**
 * What an agent with the card type `C` (a generated module's `typeof card`) must be given to serve: nothing
 * when its card requires no scheme; else the verifiers of every scheme its requirements name, or an
 * `http.authenticate` of its own (the only way for HTTP basic and mutual TLS).
 */
export type CardSecurity<C> = [RequiredNames<C>] extends [never]
  ? unknown
  : Unverifiable<C> extends true
    ? { readonly http: { readonly authenticate: Authenticate } }
    : | { readonly verifiers: Required<Pick<A2aVerifiers, Verifiers<C>[RequiredNames<C>]>> }
      | { readonly http: { readonly authenticate: Authenticate } };
