/**
 * @module test/helpers/legacy-oracle — what the official SDK's recorded handshake-era sessions
 * (test/fixtures/recordings/mcp_sdk_exchanges.json, the Python SDK mcp 2.3.0; never regenerated from our
 * code) say a handshake-era answer must be, as rules a golden legacy response can be held to: an oracle that
 * does not come from our own output, so the handshake stability test can fail when the server and the committed
 * corpus drift together (a response regenerated with GOLDEN_ACCEPT, say).
 *
 * Each rule is read off a recorded exchange found by what it is (the request that follows initialize, a
 * resources/read the server refused, …), not by its position, and applies to a golden case of the same kind.
 * Where the golden server chose differently from the recorded one on purpose (an unknown tool is an error
 * there, an isError result in the recording), only what both share is held: the message's wording.
 */
import { handshakeRevisions } from '../../generated/revisions/index.ts';
import { canonicalJson } from './golden.ts';
import { loadMcpSessions, type RecordedSession } from './recordings.ts';

type Json = Record<string, any>;

/** One recorded request and the server's answer to it, with the session it came from and that session's era. */
export interface Exchange {
  readonly session: string;
  readonly era: 'handshake' | 'stateless';
  /** The request came before the session's initialize (a handshake-era server has not negotiated yet). */
  readonly beforeInitialize: boolean;
  readonly request: Json;
  readonly response: Json;
}

/** A golden case as the rules see it: its request and the response to judge. */
export interface Judged {
  readonly name: string;
  readonly request: Json;
  readonly response: Json;
}

export interface Rule {
  /** What the rule holds, and the recorded exchange it comes from. */
  readonly description: string;
  /** Whether the rule speaks about this case. */
  applies(c: Judged): boolean;
  /** Why the case's response breaks the rule, or undefined. */
  check(c: Judged): string | undefined;
}

const ENVELOPE_KEYS = ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities'];
const hasEnvelope = (request: Json) => ENVELOPE_KEYS.some((k) => request['params']?.['_meta']?.[k] !== undefined);
const keys = (o: unknown) => (o !== null && typeof o === 'object' ? Object.keys(o).sort() : []);
/** A recorded value, as a rule's description quotes it. */
const show = (v: unknown) => JSON.stringify(v);
/** Equal as JSON values, whatever the order of object members. */
const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/**
 * The era a session speaks: `legacy` sessions the handshake era, `raw` ones the era of their first request
 * that decides one (initialize, or the 2026-07-28 envelope), the others 2026-07-28.
 */
function eraOf(s: RecordedSession): Exchange['era'] {
  if (s.mode === 'legacy') return 'handshake';
  if (s.mode !== 'raw') return 'stateless';
  const first = s.messages.map((m) => m.json as Json | undefined).find((j) => j && (j['method'] === 'initialize' || (j['method'] && hasEnvelope(j))));
  return first && !hasEnvelope(first) ? 'handshake' : 'stateless';
}

/** Every recorded request/response pair, in order, with its session's era. */
export function recordedExchanges(sessions: readonly RecordedSession[] = loadMcpSessions()): Exchange[] {
  const out: Exchange[] = [];
  for (const s of sessions) {
    const era = eraOf(s);
    const pending = new Map<string, Json>();
    let initialized = false;
    for (const m of s.messages) {
      const json = m.json as Json | undefined;
      if (!json) continue;
      if (m.from === 'client' && json['method'] === 'initialize') initialized = true;
      if (m.from === 'client' && typeof json['method'] === 'string' && json['id'] !== undefined) pending.set(JSON.stringify(json['id']), json);
      else if (m.from === 'server' && json['method'] === undefined && pending.has(JSON.stringify(json['id']))) {
        const request = pending.get(JSON.stringify(json['id']))!;
        out.push({ session: s.name, era, beforeInitialize: !initialized && request['method'] !== 'initialize', request, response: json });
        pending.delete(JSON.stringify(json['id']));
      }
    }
  }
  return out;
}

/** The one recorded exchange `pick` selects; throws when the recordings have none (the rule could not be read). */
function recorded(exchanges: readonly Exchange[], what: string, pick: (e: Exchange) => boolean): Exchange {
  const found = exchanges.find(pick);
  if (!found) throw new Error(`the recordings have no exchange for "${what}"`);
  return found;
}

/** A recorded message with one value of its request put back as a placeholder: `Unknown resource: docs://missing` → `Unknown resource: {}`. */
function template(text: string, value: string): (v: string) => string {
  const at = text.indexOf(value);
  if (at < 0) throw new Error(`"${text}" does not contain "${value}"`);
  return (v) => text.slice(0, at) + v + text.slice(at + value.length);
}

/** The rules the recordings give (see the module comment). */
export function legacyRules(all: readonly Exchange[] = recordedExchanges()): Rule[] {
  const exchanges = all.filter((e) => e.era === 'handshake');
  const isInit = (e: Exchange) => e.request['method'] === 'initialize' && 'result' in e.response;
  const inits = exchanges.filter(isInit);
  const echoed = inits.filter((e) => e.response['result']['protocolVersion'] === e.request['params']['protocolVersion']);
  const offered = recorded(exchanges, 'initialize with an unknown version', (e) => isInit(e) && !echoed.includes(e));
  const initKeys = keys(inits[0]?.response['result']);
  const ping = recorded(exchanges, 'ping', (e) => e.request['method'] === 'ping');
  const unknownResource = recorded(
    exchanges,
    'resources/read of a missing uri',
    (e) => e.request['method'] === 'resources/read' && 'error' in e.response,
  );
  const resourceMessage = template(unknownResource.response['error']['message'], unknownResource.request['params']['uri']);
  const wrongEra = recorded(exchanges, 'a 2026-07-28 request on a handshake connection', (e) => hasEnvelope(e.request) && 'error' in e.response);
  const beforeInit = recorded(exchanges, 'a request before initialize', (e) => e.beforeInitialize && e.response['error']?.['code'] === -32602);
  const notFound = recorded(all, 'a method the server does not have', (e) => e.response['error']?.['code'] === -32601);
  const toolFailure = recorded(
    exchanges,
    'a tool that raised',
    (e) =>
      e.request['method'] === 'tools/call' &&
      e.response['result']?.['isError'] === true &&
      String(e.response['result']['content']?.[0]?.text).startsWith('Error executing tool'),
  );
  const failureText = template(toolFailure.response['result']['content'][0].text, toolFailure.request['params']['name']);
  const unknownTool = recorded(
    exchanges,
    'tools/call of an unknown tool',
    (e) => e.request['method'] === 'tools/call' && String(e.response['result']?.['content']?.[0]?.text).startsWith('Unknown tool'),
  );
  const unknownToolText = template(unknownTool.response['result']['content'][0].text, unknownTool.request['params']['name']);
  // Result members per method, as recorded (the methods the recordings answer with a result).
  const resultKeys = new Map<string, Set<string>>();
  for (const e of exchanges.filter((x) => 'result' in x.response && !hasEnvelope(x.request)))
    for (const k of keys(e.response['result'])) resultKeys.set(e.request['method'], (resultKeys.get(e.request['method']) ?? new Set()).add(k));
  const recordedMembers = [...resultKeys].map(([m, k]) => `${m}: ${[...k].join('/')}`).join('; ');
  const echoedVersions = new Set(echoed.map((e) => e.response['result']['protocolVersion']));
  const isError = (c: Judged, code: number) => c.response['error']?.['code'] === code;
  const errorText = (c: Judged) => c.response['error']?.['message'] ?? c.response['result']?.['content']?.[0]?.text;

  return [
    {
      description:
        `initialize echoes a version the SDK echoed (${[...echoedVersions].join(', ')}), ` +
        `and answers an unknown one with ${offered.response['result']['protocolVersion']} (${offered.session})`,
      applies: (c) => c.request['method'] === 'initialize' && 'result' in c.response,
      check: (c) => {
        const asked = c.request['params']['protocolVersion'];
        const got = c.response['result']['protocolVersion'];
        // Known: a handshake revision (the SDK echoed each it was asked for: the recordings ask for two).
        const known = echoedVersions.has(asked) || (handshakeRevisions as readonly string[]).includes(asked);
        const want = known ? asked : offered.response['result']['protocolVersion'];
        return got === want ? undefined : `protocolVersion ${got}, the SDK's rule gives ${want}`;
      },
    },
    {
      description: `initialize's result has the members the SDK's had (${initKeys.join(', ')}), and instructions when the server has them`,
      applies: (c) => c.request['method'] === 'initialize' && 'result' in c.response,
      check: (c) => {
        const got = keys(c.response['result']).filter((k) => k !== 'instructions');
        return same(got, initKeys) ? undefined : `members ${got.join(', ')}`;
      },
    },
    {
      description: `ping is answered ${JSON.stringify(ping.response['result'])} (${ping.session})`,
      applies: (c) => c.request['method'] === 'ping',
      check: (c) => (same(c.response['result'], ping.response['result']) ? undefined : `ping answered ${JSON.stringify(c.response)}`),
    },
    {
      description: `a resource the server does not have is ${show(unknownResource.response['error'])} with its uri (${unknownResource.session})`,
      applies: (c) =>
        c.request['method'] === 'resources/read' &&
        typeof c.request['params']?.['uri'] === 'string' &&
        isError(c, unknownResource.response['error']['code']) &&
        c.response['error']['message'] !== beforeInit.response['error']['message'],
      check: (c) => {
        const uri = c.request['params']['uri'];
        const want = { code: unknownResource.response['error']['code'], message: resourceMessage(uri), data: { uri } };
        return same(c.response['error'], want) ? undefined : `error ${JSON.stringify(c.response['error'])}, want ${JSON.stringify(want)}`;
      },
    },
    {
      description: `a request in the 2026-07-28 envelope on a handshake connection is ${show(wrongEra.response['error'])} (${wrongEra.session})`,
      applies: (c) => hasEnvelope(c.request),
      check: (c) => (same(c.response['error'], wrongEra.response['error']) ? undefined : `error ${JSON.stringify(c.response['error'])}`),
    },
    {
      description: `the SDK's handshake-era params refusal is exactly ${JSON.stringify(beforeInit.response['error'])} (${beforeInit.session})`,
      applies: (c) => isError(c, -32602) && c.response['error']['message'] === beforeInit.response['error']['message'],
      check: (c) => (same(c.response['error'], beforeInit.response['error']) ? undefined : `error ${JSON.stringify(c.response['error'])}`),
    },
    {
      description: `a tool's own failure reads "${failureText('<name>')}" (${toolFailure.session})`,
      applies: (c) => c.request['method'] === 'tools/call' && String(errorText(c)).startsWith(failureText('').trimEnd()),
      check: (c) => {
        const text = String(errorText(c));
        const want = failureText(c.request['params']['name']);
        return c.response['result']?.['isError'] === true && (text === want || text.startsWith(`${want}:`))
          ? undefined
          : `"${text}", want "${want}[: …]" as an isError result`;
      },
    },
    {
      description:
        `an unknown tool reads "${unknownToolText('<name>')}" (${unknownTool.session}; ` +
        'the golden server answers it as an error, the recorded one as an isError result)',
      applies: (c) => c.request['method'] === 'tools/call' && String(errorText(c)).startsWith('Unknown tool'),
      check: (c) => (errorText(c) === unknownToolText(c.request['params']['name']) ? undefined : `"${errorText(c)}"`),
    },
    {
      description:
        `a method the server does not serve is ${show(notFound.response['error'])} with its own method as data ` +
        `(${notFound.session}; the SDK's one form of -32601)`,
      applies: (c) => isError(c, -32601),
      check: (c) => {
        const want = { ...notFound.response['error'], data: c.request['method'] };
        return same(c.response['error'], want) ? undefined : `error ${JSON.stringify(c.response['error'])}`;
      },
    },
    {
      description: `a result has only members the SDK's results of the same method had (${recordedMembers})`,
      applies: (c) => 'result' in c.response && resultKeys.has(c.request['method']),
      check: (c) => {
        const allowed = resultKeys.get(c.request['method'])!;
        const extra = keys(c.response['result']).filter((k) => !allowed.has(k) && !(c.request['method'] === 'initialize' && k === 'instructions'));
        return extra.length ? `members the SDK's ${c.request['method']} results never had: ${extra.join(', ')}` : undefined;
      },
    },
  ];
}

/** The rules that speak about `c` and what each finds wrong: `[]` when none applies or all hold. */
export function judge(rules: readonly Rule[], c: Judged): { applied: number; violations: string[] } {
  const applying = rules.filter((r) => r.applies(c));
  const violations = applying.flatMap((r) => {
    const why = r.check(c);
    return why === undefined ? [] : [`${c.name}: ${why} (rule: ${r.description})`];
  });
  return { applied: applying.length, violations };
}
