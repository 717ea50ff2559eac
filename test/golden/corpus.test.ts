/**
 * The golden corpus itself (test/golden/), without running a server: every committed response
 * validates against the result or error shape of its pin with the generated validators, carries its era's
 * envelope, and the corpus covers, in both eras, what a golden corpus of a server must (at least 60 cases; every category;
 * every list method; every call, get, read and complete of both handler sets).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcp } from '../../generated/revisions/index.ts';

/** Every MCP package, loaded: the shape checks below are synchronous. */
const packages = Object.fromEntries(await Promise.all(Object.entries(mcp).map(async ([revision, entry]) => [revision, await entry.load()] as const)));
import { spec as baseSpec } from '../../generated/samples/golden/index.ts';
import { spec as extendedSpec } from '../../generated/samples/golden-extended/index.ts';
import golden, { handlerSets } from '../../samples/golden.ts';
import {
  committedResponse,
  GOLDEN_DIR,
  loadManifest,
  nonCanonicalEmbeddedJson,
  OTHER_CATEGORIES,
  REQUIRED_CATEGORIES,
  requestLine,
  type Era,
  type GoldenCase,
} from '../helpers/golden.ts';

type Json = Record<string, any>;
interface Validator {
  (data: unknown): boolean;
  errors?: readonly { instancePath: string; message?: string }[] | null;
}

const manifest = loadManifest();
const cases = manifest.cases;
const ERAS: readonly Era[] = ['handshake', 'stateless'];
/** The reference corpus's folder for each era (legacy/, modern/), which our case names follow. */
const FOLDER: Readonly<Record<Era, string>> = { handshake: 'legacy', stateless: 'modern' };
const STATELESS = '2026-07-28';
const ENVELOPE = ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities'];
const request = (c: GoldenCase) => JSON.parse(requestLine(c)) as Json;
const response = (c: GoldenCase) => committedResponse(c) as Json | undefined;

function pin(revision: string) {
  const pkg = (packages as Record<string, { lookup(method: string): { result?: Validator; cacheable: boolean } | undefined; validators: object }>)[revision];
  if (!pkg) throw new Error(`no generated MCP package for revision ${revision}`);
  return { lookup: pkg.lookup, validators: pkg.validators as Record<string, Validator | undefined> };
}

/** The first error of a failed validation, for the message. */
const why = (v: Validator) => (v.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '(root)'} ${e.message}`).join('; ');

/** The pin's definition of each JSON-RPC / MCP error code (the 2026-07-28 schema names them). */
const ERROR_DEFS: Record<number, string> = {
  [-32700]: 'ParseError',
  [-32600]: 'InvalidRequestError',
  [-32601]: 'MethodNotFoundError',
  [-32602]: 'InvalidParamsError',
  [-32603]: 'InternalError',
  [-32020]: 'HeaderMismatchError',
  [-32021]: 'MissingRequiredClientCapabilityError',
  [-32022]: 'UnsupportedProtocolVersionError',
};

describe('golden corpus: files and manifest', () => {
  it('samples/golden.ts serves the base spec by default and the extended spec as handlerSets.extended', () => {
    expect(golden.spec).toBe(baseSpec);
    expect(handlerSets.extended.spec).toBe(extendedSpec);
    expect(Object.keys(handlerSets)).toEqual(['extended']);
  });

  it('the manifest names each case once, with its era, handler set, notifications and revision', () => {
    const names = cases.map((c) => c.name);
    expect(new Set(names).size, 'duplicate case names').toBe(names.length);
    const categories: readonly string[] = [...REQUIRED_CATEGORIES, ...OTHER_CATEGORIES];
    for (const c of cases) {
      expect(c.name.startsWith(`${FOLDER[c.era]}/`), c.name).toBe(true);
      expect(categories, c.name).toContain(c.category);
      expect(['base', 'extended'], c.name).toContain(c.handlers);
      expect(typeof c.notifications, c.name).toBe('boolean');
      pin(c.revision);
      if (c.era === 'stateless') expect([c.handshake, c.revision], c.name).toEqual([null, STATELESS]);
      else if (c.handshake !== null) expect(c.revision, `${c.name}: served under the revision its preamble negotiated`).toBe(c.handshake);
      else expect(request(c)['method'], `${c.name}: a legacy case without preamble opens the connection`).toBe('initialize');
    }
    expect(manifest.preamble.initialize).toContain('"$REVISION"');
    expect(Object.keys(manifest.categories).sort(), 'the manifest describes each category').toEqual([...categories].sort());
  });

  it('every file under legacy/ and modern/ belongs to a case, and every case has both files', () => {
    const files = ERAS.flatMap((era) => readdirSync(join(GOLDEN_DIR, FOLDER[era])).map((f) => `${FOLDER[era]}/${f}`)).sort();
    const expected = cases.flatMap((c) => [`${c.name}.request.json`, `${c.name}.response.json`]).sort();
    expect(files).toEqual(expected);
  });

  it('each request is one line, a JSON-RPC request with an id of its own', () => {
    const ids = new Set<unknown>([JSON.parse(manifest.preamble.initialize.replace('$REVISION', 'x'))['id']]);
    for (const c of cases) {
      const req = request(c);
      expect(req['jsonrpc'], c.name).toBe('2.0');
      expect(typeof req['method'], c.name).toBe('string');
      expect(ids.has(req['id']), `${c.name}: id ${req['id']} is used by another request or the preamble`).toBe(false);
      ids.add(req['id']);
    }
  });

  it('the legacy requests carry no 2026-07-28 envelope, the modern ones all of it (except where that is the case)', () => {
    for (const c of cases) {
      const meta = request(c)['params']?.['_meta'];
      const full = meta !== null && typeof meta === 'object' && ENVELOPE.every((k) => k in meta);
      if (c.category === 'wrong-era' || c.category === 'meta' || c.category === 'unsupported-version') continue;
      expect(full, `${c.name}: ${c.era === 'handshake' ? 'a handshake-era request has no 2026-07-28 _meta' : 'a 2026-07-28 request carries its _meta'}`).toBe(c.era === 'stateless');
    }
  });
});

describe('golden corpus: every committed response has the shape of its pin (generated validators)', () => {
  for (const c of cases)
    it(`${c.name} (${c.revision})`, () => {
      const res = response(c);
      expect(res, `${c.name}: no committed response (run the replay with GOLDEN_ACCEPT=1, then check it by hand)`).toBeDefined();
      const req = request(c);
      const { lookup, validators } = pin(c.revision);
      expect(res!['id'], 'the response answers the request').toEqual(req['id']);
      expect(nonCanonicalEmbeddedJson(res)).toEqual([]);
      if ('result' in res!) {
        const validate = lookup(req['method'])?.result;
        expect(validate, `${req['method']} has a result definition in ${c.revision}`).toBeDefined();
        expect(validate!(res!['result']), `${req['method']} result: ${why(validate!)}`).toBe(true);
        const message = validators['JSONRPCResultResponse'] ?? validators['JSONRPCResponse']!;
        expect(message(res), `JSON-RPC result response: ${why(message)}`).toBe(true);
      } else {
        const message = validators['JSONRPCErrorResponse'] ?? validators['JSONRPCError']!;
        expect(message(res), `JSON-RPC error response: ${why(message)}`).toBe(true);
        // Where the pin defines the code's error: a definition is of the error object or of the whole message.
        const specific = validators[ERROR_DEFS[res!['error']['code']] ?? ''];
        if (specific) expect(specific(res) || specific(res!['error']), `${ERROR_DEFS[res!['error']['code']]}: ${why(specific)}`).toBe(true);
      }
    });
});

describe('golden corpus: era envelopes', () => {
  it('legacy results carry no 2026-07-28 envelope (resultType, serverInfo in _meta, cache hints)', () => {
    for (const c of cases.filter((x) => x.era === 'handshake')) {
      const result = response(c)?.['result'];
      if (!result) continue;
      expect(Object.keys(result).filter((k) => ['resultType', 'ttlMs', 'cacheScope'].includes(k)), c.name).toEqual([]);
      expect(result['_meta']?.['io.modelcontextprotocol/serverInfo'], c.name).toBeUndefined();
    }
  });

  it('modern results carry resultType, the server identity in _meta, and ttlMs/cacheScope exactly on cacheable methods', () => {
    const { lookup } = pin(STATELESS);
    for (const c of cases.filter((x) => x.era === 'stateless')) {
      const result = response(c)?.['result'];
      if (!result) continue;
      expect(result['resultType'], c.name).toBe('complete');
      expect(result['_meta']?.['io.modelcontextprotocol/serverInfo'], c.name).toEqual(baseSpec.serverInfo);
      const cacheable = lookup(request(c)['method'])!.cacheable;
      expect([result['ttlMs'], result['cacheScope']], c.name).toEqual(cacheable ? [0, 'private'] : [undefined, undefined]);
    }
  });
});

describe('golden corpus: coverage', () => {
  it(`holds at least 60 cases (${cases.length}: ${cases.filter((c) => c.era === 'handshake').length} handshake, ${cases.filter((c) => c.era === 'stateless').length} stateless)`, () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  for (const era of ERAS) {
    const inEra = cases.filter((c) => c.era === era);
    const requests = (pred: (c: GoldenCase) => boolean) => inEra.filter(pred).map((c) => ({ c, req: request(c) }));

    it(`${era}: every required category`, () => {
      const present = new Set(inEra.map((c) => c.category));
      expect(REQUIRED_CATEGORIES.filter((k) => !present.has(k))).toEqual([]);
    });

    it(`${era}: initialize/discover with notifications off and on, for both handler sets`, () => {
      const method = era === 'handshake' ? 'initialize' : 'server/discover';
      const seen = requests((c) => c.category === 'initialize-discover').filter(({ req }) => req['method'] === method);
      for (const handlers of ['base', 'extended'])
        for (const notifications of [false, true])
          expect(seen.some(({ c }) => c.handlers === handlers && c.notifications === notifications), `${handlers}, notifications ${notifications}`).toBe(true);
    });

    it(`${era}: every list method`, () => {
      const listed = new Set(requests((c) => c.category === 'list').map(({ req }) => req['method']));
      expect([...listed].sort()).toEqual(['prompts/list', 'resources/list', 'resources/templates/list', 'tools/list']);
    });

    for (const [handlers, spec] of [['base', baseSpec], ['extended', extendedSpec]] as const)
      it(`${era}: every call, get, read and complete of the ${handlers} set`, () => {
        const of = requests((c) => c.handlers === handlers);
        const params = (method: string) => of.filter(({ req }) => req['method'] === method).map(({ req }) => req['params'] ?? {});
        const called = new Set(params('tools/call').map((p) => p['name']));
        expect(spec.tools.map((t) => t.name).filter((n) => !called.has(n)), 'tools not called').toEqual([]);
        const got = new Set(params('prompts/get').map((p) => p['name']));
        expect(spec.prompts.map((p) => p.name).filter((n) => !got.has(n)), 'prompts not got').toEqual([]);
        const read = params('resources/read').map((p) => String(p['uri']));
        expect(spec.resources.map((r) => r.uri).filter((u) => !read.includes(u)), 'resources not read').toEqual([]);
        const templates = 'resourceTemplates' in spec ? spec.resourceTemplates : [];
        const under = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
        expect(templates.filter((t) => !read.some((u) => under(t.uriTemplate).test(u))).map((t) => t.uriTemplate), 'templates not read').toEqual([]);
        const refs = params('completion/complete').map((p) => p['ref'] ?? {});
        expect(refs.length, 'completion/complete asked').toBeGreaterThan(0);
        if (handlers === 'extended') {
          expect(spec.prompts.filter((p) => !refs.some((r) => r['type'] === 'ref/prompt' && r['name'] === p.name)).map((p) => p.name), 'prompts not completed').toEqual([]);
          expect(templates.filter((t) => !refs.some((r) => r['type'] === 'ref/resource' && r['uri'] === t.uriTemplate)).map((t) => t.uriTemplate), 'templates not completed').toEqual([]);
        }
      });

    it(`${era}: the methods 2026-07-28 removed (initialize, ping, logging/setLevel, resources/subscribe)`, () => {
      const removed = new Set(requests((c) => c.category === 'removed-method').map(({ req }) => req['method']));
      const expected = era === 'handshake' ? ['logging/setLevel', 'ping', 'resources/subscribe'] : ['initialize', 'logging/setLevel', 'ping', 'resources/subscribe'];
      // initialize in the handshake era: every legacy case's preamble, and the initialize-discover cases.
      expect(expected.filter((m) => !removed.has(m))).toEqual([]);
    });
  }
});
