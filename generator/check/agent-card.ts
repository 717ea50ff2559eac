/**
 * @module check/agent-card — what an agent spec's cards must be beyond the pin's AgentCard definition: the
 * values the card format enumerates in words rather than in the schema, and the references between its parts.
 * The bundled JSON Schema (schemas/a2a/1.0/a2a.json) types these fields as plain strings and maps, so its
 * validator passes `protocolBinding: HTTP_JSON` and a requirement naming a scheme that does not exist; each is
 * one diagnostic here, at the JSON pointer of the value. Run on a card (and an extended card) the AgentCard
 * validator accepted.
 *
 * The enumerations are the schema's own text (test/a2a/agent-card-check.test.ts reads them back from the
 * pinned schema, so a schema bump that changes them fails there):
 * - `AgentInterface.protocolBinding`: "The core ones officially supported are `JSONRPC`, `GRPC` and
 *   `HTTP+JSON`"; the field is "open form", and A2A §5.8 says a custom binding SHOULD be identified by a URI.
 *   A value that is neither is an error: no client can select it (§8.3.2), and it is nearly always a typo.
 * - `APIKeySecurityScheme.location`: "Valid values are "query", "header", or "cookie"".
 */
import { pointer } from '../errors.ts';
import { isObject, type JsonObject } from '../load/schema.ts';

/** `AgentInterface.protocolBinding`'s core values (its description in the pinned schema). */
export const CORE_BINDINGS = ['JSONRPC', 'GRPC', 'HTTP+JSON'] as const;
/** `APIKeySecurityScheme.location`'s valid values (its description in the pinned schema). */
export const API_KEY_LOCATIONS = ['query', 'header', 'cookie'] as const;
/** The bindings the runtime serves an agent on (runtime/a2a/http.ts): their interfaces carry the pin's version and an http(s) URL. */
const SERVED = new Set<string>(['JSONRPC', 'HTTP+JSON']);

/** An RFC 9110 §5.6.2 token (an HTTP authentication scheme name, RFC 9110 §11.1). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** An RFC 6838 §4.2 media type `type/subtype`, with optional RFC 9110 §8.3.1 parameters. */
const MEDIA_TYPE =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+=("[^"]*"|[!#$%&'*+.^_`|~0-9A-Za-z-]+))*$/;
/** An absolute URI (RFC 3986 §4.3: a scheme, then a colon). */
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;

type Report = (at: string, message: string) => void;

const quote = (v: unknown) => JSON.stringify(v);
const list = (values: readonly string[]) => values.join(', ');

/** The candidate closest to `value` (edit distance at most 2, case and punctuation aside), for "did you mean". */
function nearest(value: string, candidates: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const distance = (a: string, b: string): number => {
    const d = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let prev = d[0]!;
      d[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const next = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = d[j]!;
        d[j] = next;
      }
    }
    return d[b.length]!;
  };
  let best: { value: string; d: number } | undefined;
  for (const c of candidates) {
    const d = norm(c) === norm(value) ? 0 : distance(value.toLowerCase(), c.toLowerCase());
    if (d <= 2 && (!best || d < best.d)) best = { value: c, d };
  }
  return best?.value;
}
const suggest = (value: string, candidates: readonly string[]) => {
  const n = nearest(value, candidates);
  return n ? `: did you mean ${quote(n)}?` : '';
};

const objects = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const at = (base: string, ...path: (string | number)[]) => base + pointer(...path);

function checkInterfaces(card: JsonObject, base: string, revision: string, report: Report): void {
  objects(card['supportedInterfaces']).forEach((iface, i) => {
    const binding = iface['protocolBinding'];
    if (typeof binding !== 'string') return;
    const core = (CORE_BINDINGS as readonly string[]).includes(binding);
    if (!core && !ABSOLUTE_URI.test(binding))
      report(
        at(base, 'supportedInterfaces', i, 'protocolBinding'),
        `${quote(binding)} is not a protocol binding A2A defines (${list(CORE_BINDINGS)}; a custom binding is a URI, A2A §5.8)${suggest(binding, CORE_BINDINGS)}`,
      );
    const version = iface['protocolVersion'];
    if (typeof version === 'string' && !/^\d+\.\d+$/.test(version))
      report(at(base, 'supportedInterfaces', i, 'protocolVersion'), `${quote(version)} is not an A2A version: <major>.<minor>, e.g. "${revision}"`);
    else if (SERVED.has(binding) && version !== revision)
      report(
        at(base, 'supportedInterfaces', i, 'protocolVersion'),
        `${quote(version)}: the agent generated from this spec serves A2A ${revision} on its ${binding} interface`,
      );
    const url = iface['url'];
    if (typeof url !== 'string') return;
    const web = SERVED.has(binding);
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (web && parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
      report(at(base, 'supportedInterfaces', i, 'url'), `${quote(url)} is not an absolute ${web ? 'http(s) ' : ''}URL`);
  });
}

/** The scopes an OAuth 2 scheme's flows declare (their `scopes` maps). */
function oauthScopes(scheme: JsonObject): string[] | undefined {
  const oauth = scheme['oauth2SecurityScheme'];
  if (!isObject(oauth) || !isObject(oauth['flows'])) return undefined;
  return Object.values(oauth['flows']).flatMap((flow) => (isObject(flow) && isObject(flow['scopes']) ? Object.keys(flow['scopes']) : []));
}

function checkSecurity(card: JsonObject, base: string, report: Report): void {
  const schemes = isObject(card['securitySchemes']) ? card['securitySchemes'] : {};
  const names = Object.keys(schemes);
  for (const [name, scheme] of Object.entries(schemes)) {
    if (!isObject(scheme)) continue;
    const apiKey = scheme['apiKeySecurityScheme'];
    if (isObject(apiKey) && typeof apiKey['location'] === 'string' && !(API_KEY_LOCATIONS as readonly string[]).includes(apiKey['location']))
      report(
        at(base, 'securitySchemes', name, 'apiKeySecurityScheme', 'location'),
        `${quote(apiKey['location'])} is not an API key location (${list(API_KEY_LOCATIONS)})${suggest(apiKey['location'], API_KEY_LOCATIONS)}`,
      );
    const http = scheme['httpAuthSecurityScheme'];
    if (isObject(http) && typeof http['scheme'] === 'string' && !TOKEN.test(http['scheme']))
      report(
        at(base, 'securitySchemes', name, 'httpAuthSecurityScheme', 'scheme'),
        `${quote(http['scheme'])} is not an HTTP authentication scheme name (one token, RFC 9110 §11.1, e.g. "Bearer")`,
      );
  }
  // The card's requirements and each skill's name schemes of the card's securitySchemes (§4.5).
  const requirementSets: [string, unknown][] = [
    [base, card['securityRequirements']],
    ...objects(card['skills']).map((skill, i): [string, unknown] => [at(base, 'skills', i), skill['securityRequirements']]),
  ];
  for (const [owner, requirements] of requirementSets)
    objects(requirements).forEach((requirement, r) => {
      const required = isObject(requirement['schemes']) ? requirement['schemes'] : {};
      for (const [name, scopes] of Object.entries(required)) {
        const where = at(owner, 'securityRequirements', r, 'schemes', name);
        const scheme = schemes[name];
        if (!isObject(scheme)) {
          report(
            where,
            `names security scheme ${quote(name)}, which ${base}/securitySchemes does not define (${names.length ? `it defines ${list(names)}` : 'it defines none'})${suggest(name, names)}`,
          );
          continue;
        }
        const declared = oauthScopes(scheme);
        if (!declared) continue;
        strings(isObject(scopes) ? scopes['list'] : undefined).forEach((scope, s) => {
          if (!declared.includes(scope))
            report(
              `${where}/list/${s}`,
              `scope ${quote(scope)} is not among the scopes ${base}/securitySchemes/${name} declares in its flows (${list(declared) || 'none'})`,
            );
        });
      }
    });
}

function checkModes(card: JsonObject, base: string, report: Report): void {
  const defaults = { inputModes: strings(card['defaultInputModes']), outputModes: strings(card['defaultOutputModes']) };
  const syntax = (values: unknown, where: string) =>
    strings(values).forEach((mode, i) => {
      if (!MEDIA_TYPE.test(mode)) report(`${where}/${i}`, `${quote(mode)} is not a media type (type/subtype, RFC 6838)`);
    });
  syntax(card['defaultInputModes'], at(base, 'defaultInputModes'));
  syntax(card['defaultOutputModes'], at(base, 'defaultOutputModes'));
  const firstSkill = new Map<string, number>();
  objects(card['skills']).forEach((skill, i) => {
    const id = skill['id'];
    if (typeof id === 'string') {
      const seen = firstSkill.get(id);
      if (seen !== undefined) report(at(base, 'skills', i, 'id'), `skill id ${quote(id)} is declared twice (first at ${at(base, 'skills', seen)})`);
      else firstSkill.set(id, i);
    }
    // AgentCard.default_input_modes: "the interaction modes that the agent supports across all skills"; the
    // runtime accepts an incoming part only when its media type is among them (runtime/a2a/task-events.ts).
    for (const [field, defaultField] of [
      ['inputModes', 'defaultInputModes'],
      ['outputModes', 'defaultOutputModes'],
    ] as const) {
      syntax(skill[field], at(base, 'skills', i, field));
      const known = defaults[field];
      strings(skill[field]).forEach((mode, m) => {
        if (MEDIA_TYPE.test(mode) && !known.includes(mode))
          report(
            at(base, 'skills', i, field, m),
            `${quote(mode)} is not among ${base}/${defaultField} (${list(known)}), which hold the modes of all skills${suggest(mode, known)}`,
          );
      });
    }
  });
}

/**
 * Checks the spec's card and extended card (each already a valid AgentCard) and how they go together: an
 * extended card needs `capabilities.extendedAgentCard` (A2A §3.1.11), and one behind no security requirement
 * would be served to anyone (§13.3: GetExtendedAgentCard MUST require authentication).
 */
export function checkAgentCards(spec: JsonObject, revision: string, report: Report): void {
  for (const key of ['card', 'extendedCard'] as const) {
    const card = spec[key];
    if (!isObject(card)) continue;
    const base = `/${key}`;
    checkInterfaces(card, base, revision, report);
    checkSecurity(card, base, report);
    checkModes(card, base, report);
  }
  const card = isObject(spec['card']) ? spec['card'] : {};
  const declared = isObject(card['capabilities']) && card['capabilities']['extendedAgentCard'] === true;
  if (spec['extendedCard'] !== undefined && !declared)
    report('/extendedCard', 'the card does not declare capabilities.extendedAgentCard: true, so no client ever gets this card (A2A §3.1.11)');
  if (declared && spec['extendedCard'] === undefined)
    report(
      '/card/capabilities/extendedAgentCard',
      'the spec has no extendedCard: GetExtendedAgentCard would answer -32007 (ExtendedAgentCardNotConfiguredError)',
    );
  if (declared && objects(card['securityRequirements']).length === 0)
    report(
      '/card/capabilities/extendedAgentCard',
      'the card declares no securityRequirements: the extended card must be behind authentication (A2A §3.1.11, §13.3)',
    );
}
