/**
 * @module auth/challenge — reading and writing `WWW-Authenticate` challenges (RFC 9110 §11.6.1, the auth-param
 * grammar of §11.2): the scheme, and the parameters a client acts on — `resource_metadata` (RFC 9728 §5.1),
 * `scope` and `error` (RFC 6750 §3; `insufficient_scope` asks for step-up, `use_dpop_nonce` for a DPoP nonce,
 * RFC 9449 §9).
 */

export interface Challenge {
  /** The auth-scheme, lower case (`bearer`, `dpop`). */
  readonly scheme: string;
  /** The auth-params, names lower case, values unquoted. */
  readonly params: Readonly<Record<string, string>>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/** Every challenge of a `WWW-Authenticate` value (several headers joined with ", " included); [] when unreadable. */
export function parseChallenges(header: string | null | undefined): Challenge[] {
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  let rest = (header ?? '').trim();
  while (rest) {
    rest = rest.replace(/^[\s,]+/, '');
    const scheme = TOKEN.exec(rest)?.[0];
    if (!scheme) break;
    rest = rest.slice(scheme.length);
    const current = { scheme: scheme.toLowerCase(), params: {} as Record<string, string> };
    challenges.push(current);
    // auth-params: name = token / quoted-string, separated by commas; a bare token starts the next challenge.
    for (;;) {
      const param = /^[\s,]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*/.exec(rest);
      if (!param) {
        // token68 (e.g. `Basic abc==`): skip it, it carries nothing a client acts on here.
        const token68 = /^\s+[A-Za-z0-9\-._~+/]+=*\s*(?=,|$)/.exec(rest);
        if (token68) rest = rest.slice(token68[0].length);
        break;
      }
      rest = rest.slice(param[0].length);
      let value: string;
      if (rest.startsWith('"')) {
        const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
        if (!quoted) return challenges;
        value = quoted[1]!.replace(/\\(.)/g, '$1');
        rest = rest.slice(quoted[0].length);
      } else {
        value = TOKEN.exec(rest)?.[0] ?? '';
        rest = rest.slice(value.length);
      }
      current.params[param[1]!.toLowerCase()] = value;
    }
  }
  return challenges;
}

/** The challenge a client acts on: DPoP when offered, else Bearer, else the first. */
export function primaryChallenge(challenges: readonly Challenge[]): Challenge | undefined {
  return challenges.find((c) => c.scheme === 'dpop') ?? challenges.find((c) => c.scheme === 'bearer') ?? challenges[0];
}

/** A quoted-string for an auth-param value (RFC 9110 §5.6.4). */
const quote = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** One challenge as a header value: `Bearer resource_metadata="…", scope="…", error="…"`; undefined params are left out. */
export function formatChallenge(scheme: string, params: Readonly<Record<string, string | undefined>>): string {
  const parts = Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${k}=${quote(v)}`);
  return parts.length ? `${scheme} ${parts.join(', ')}` : scheme;
}

/** The scopes of a space-separated `scope` value (RFC 6749 §3.3), in order, without repeats. */
export function scopeList(scope: string | undefined | null): string[] {
  return [...new Set((scope ?? '').split(' ').filter(Boolean))];
}
