/**
 * `wiregen generate --spec agent.yaml`: the card format's enumerations and cross-references the AgentCard
 * definition leaves to prose (generator/check/agent-card.ts) are errors, one line each at the value
 * (`agent.yaml:line:column /json/pointer: reason`), exit 2, nothing written: a binding A2A does not define, a
 * security requirement naming an undefined scheme (the card's or a skill's) or an undeclared OAuth scope, an
 * API key location, a media type, a skill's modes outside the card's, a duplicate skill id, an interface
 * version or URL the generated agent cannot serve, an extended card without its capability or authentication.
 * The enumerations the check holds are the pinned schema's own words, read back here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API_KEY_LOCATIONS, CORE_BINDINGS } from '../../generator/check/agent-card.ts';
import { ROOT } from '../helpers/project.ts';
import { position, userProject } from '../spec/project.ts';

const project = userProject();
afterAll(() => project.dispose());

/** A valid agent spec; `edit` replaces text in it. */
const SPEC = `name: translator
card:
  name: Translator
  description: Translates.
  supportedInterfaces:
    - { url: "http://127.0.0.1:41241/a2a", protocolBinding: JSONRPC, protocolVersion: "1.0" }
    - { url: "http://127.0.0.1:41241/rest", protocolBinding: HTTP+JSON, protocolVersion: "1.0" }
    - { url: "wss://agent.example.com/ws", protocolBinding: "https://example.com/bindings/websocket/v1", protocolVersion: "1.0" }
  version: 1.0.0
  capabilities: { streaming: true }
  securitySchemes:
    bearer:
      httpAuthSecurityScheme: { scheme: Bearer }
    key:
      apiKeySecurityScheme: { location: header, name: X-API-Key }
    oauth:
      oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: "https://as.example.com/token", scopes: { "translate:use": Use it } } } }
  securityRequirements:
    - schemes: { bearer: {} }
    - schemes: { oauth: { list: ["translate:use"] } }
  defaultInputModes: [text/plain, application/json]
  defaultOutputModes: [text/plain]
  skills:
    - { id: translate, name: Translate, description: Translates text., tags: [text], inputModes: [text/plain], outputModes: [text/plain], securityRequirements: [{ schemes: { key: {} } }] }
`;

async function generate(spec: string): Promise<{ code: number; err: string[]; wrote: boolean }> {
  project.write('agent.yaml', spec);
  const out = `out-${Math.random().toString(36).slice(2)}`;
  const { code, err } = await project.cli(['generate', '--spec', 'agent.yaml', '--out', out]);
  return { code, err, wrote: existsSync(project.path(out)) };
}
const edit = (from: string, to: string) => {
  if (!SPEC.includes(from)) throw new Error(`not in SPEC: ${from}`);
  return SPEC.replace(from, to);
};
const line = (spec: string, needle: string, pointer: string, reason: string, after = '') =>
  `agent.yaml:${position(spec, needle, after)} ${pointer}: ${reason}`;

describe('wiregen generate --spec: the card checks', () => {
  it('a card using every checked field well generates', async () => {
    expect(await generate(SPEC)).toEqual({ code: 0, err: [], wrote: true });
  });

  it('the two typos: a binding A2A does not define, a requirement naming an undefined scheme', async () => {
    const spec = edit('protocolBinding: HTTP+JSON', 'protocolBinding: HTTP_JSON').replace('schemes: { bearer: {} }', 'schemes: { bearr: {} }');
    expect(await generate(spec)).toEqual({
      code: 2,
      wrote: false,
      err: [
        line(
          spec,
          'HTTP_JSON',
          '/card/supportedInterfaces/1/protocolBinding',
          '"HTTP_JSON" is not a protocol binding A2A defines (JSONRPC, GRPC, HTTP+JSON; a custom binding is a URI, A2A §5.8): did you mean "HTTP+JSON"?',
        ),
        line(
          spec,
          '{}',
          '/card/securityRequirements/0/schemes/bearr',
          'names security scheme "bearr", which /card/securitySchemes does not define (it defines bearer, key, oauth): did you mean "bearer"?',
          'bearr',
        ),
      ],
    });
  });

  it("a skill's requirement, an OAuth scope, an API key location and an HTTP scheme name", async () => {
    const spec = edit('schemes: { key: {} }', 'schemes: { keys: {} }')
      .replace('list: ["translate:use"]', 'list: ["translate:all"]')
      .replace('location: header', 'location: headers')
      .replace('scheme: Bearer', 'scheme: "Bearer token"');
    const { code, err } = await generate(spec);
    expect(code).toBe(2);
    expect(err).toEqual([
      line(
        spec,
        '"Bearer token"',
        '/card/securitySchemes/bearer/httpAuthSecurityScheme/scheme',
        '"Bearer token" is not an HTTP authentication scheme name (one token, RFC 9110 §11.1, e.g. "Bearer")',
      ),
      line(
        spec,
        'headers',
        '/card/securitySchemes/key/apiKeySecurityScheme/location',
        '"headers" is not an API key location (query, header, cookie): did you mean "header"?',
      ),
      line(
        spec,
        '"translate:all"',
        '/card/securityRequirements/1/schemes/oauth/list/0',
        'scope "translate:all" is not among the scopes /card/securitySchemes/oauth declares in its flows (translate:use)',
      ),
      line(
        spec,
        '{}',
        '/card/skills/0/securityRequirements/0/schemes/keys',
        'names security scheme "keys", which /card/securitySchemes does not define (it defines bearer, key, oauth): did you mean "key"?',
        'keys',
      ),
    ]);
  });

  it("media types, a skill's modes outside the card's, a duplicate skill id", async () => {
    const skill = SPEC.slice(SPEC.indexOf('    - { id: translate'));
    const spec =
      edit('defaultOutputModes: [text/plain]', 'defaultOutputModes: [text/plain, plain]').replace(
        'outputModes: [text/plain]',
        'outputModes: [text/markdown]',
      ) + skill.replace('inputModes: [text/plain]', 'inputModes: [image/png]');
    const { code, err } = await generate(spec);
    expect(code).toBe(2);
    expect(err).toEqual([
      line(spec, 'plain]', '/card/defaultOutputModes/1', '"plain" is not a media type (type/subtype, RFC 6838)', 'defaultOutputModes'),
      line(
        spec,
        'text/markdown',
        '/card/skills/0/outputModes/0',
        '"text/markdown" is not among /card/defaultOutputModes (text/plain, plain), which hold the modes of all skills',
      ),
      line(spec, 'translate', '/card/skills/1/id', 'skill id "translate" is declared twice (first at /card/skills/0)', 'text/markdown'),
      line(
        spec,
        'image/png',
        '/card/skills/1/inputModes/0',
        '"image/png" is not among /card/defaultInputModes (text/plain, application/json), which hold the modes of all skills',
      ),
    ]);
  });

  it('an interface the generated agent cannot serve: another version, a URL that is not http(s)', async () => {
    const spec = edit(
      '41241/a2a", protocolBinding: JSONRPC, protocolVersion: "1.0"',
      '41241/a2a", protocolBinding: JSONRPC, protocolVersion: "0.3"',
    ).replace('url: "http://127.0.0.1:41241/rest"', 'url: "127.0.0.1:41241/rest"');
    const { code, err } = await generate(spec);
    expect(code).toBe(2);
    expect(err).toEqual([
      line(
        spec,
        '"0.3"',
        '/card/supportedInterfaces/0/protocolVersion',
        '"0.3": the agent generated from this spec serves A2A 1.0 on its JSONRPC interface',
      ),
      line(spec, '"127.0.0.1:41241/rest"', '/card/supportedInterfaces/1/url', '"127.0.0.1:41241/rest" is not an absolute http(s) URL'),
    ]);
  });

  it('an extended card: needs the capability, and authentication in front of it', async () => {
    const open = SPEC.replace(/ {2}securityRequirements:\n( {4}- .*\n)+/, '').replace(', securityRequirements: [{ schemes: { key: {} } }]', '');
    const declared = open.replace('capabilities: { streaming: true }', 'capabilities: { streaming: true, extendedAgentCard: true }');
    const { code, err } = await generate(declared);
    expect(code).toBe(2);
    expect(err).toEqual([
      line(
        declared,
        'true }',
        '/card/capabilities/extendedAgentCard',
        'the spec has no extendedCard: GetExtendedAgentCard would answer -32007 (ExtendedAgentCardNotConfiguredError)',
        'extendedAgentCard',
      ),
      line(
        declared,
        'true }',
        '/card/capabilities/extendedAgentCard',
        'the card declares no securityRequirements: the extended card must be behind authentication (A2A §3.1.11, §13.3)',
        'extendedAgentCard',
      ),
    ]);
    const card = SPEC.slice(SPEC.indexOf('card:\n') + 'card:\n'.length);
    const undeclared = `${SPEC}extendedCard:\n${card}`;
    expect((await generate(undeclared)).err).toEqual([
      `agent.yaml:${position(undeclared, 'name: Translator', 'extendedCard:')} /extendedCard: the card does not declare capabilities.extendedAgentCard: true, so no client ever gets this card (A2A §3.1.11)`,
    ]);
  });
});

describe('the enumerations are the pinned schema’s words', () => {
  const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'a2a', '1.0', 'a2a.json'), 'utf8')) as { definitions: Record<string, any> };
  const description = (def: string, prop: string): string => {
    const found = Object.values(schema.definitions).find((d) => d?.properties?.[prop] && String(d.title ?? '').replace(/\W/g, '') === def);
    return String(found?.properties[prop].description ?? '');
  };

  it('AgentInterface.protocolBinding: "The core ones officially supported are `JSONRPC`, `GRPC` and `HTTP+JSON`"', () => {
    const text = description('AgentInterface', 'protocolBinding');
    expect(text).toMatch(/core ones officially\s+supported are/);
    expect([...text.matchAll(/`([^`]+)`/g)].map((m) => m[1])).toEqual([...CORE_BINDINGS]);
  });

  it('APIKeySecurityScheme.location: "Valid values are "query", "header", or "cookie""', () => {
    const text = description('APIKeySecurityScheme', 'location');
    expect(text).toMatch(/Valid values are/);
    expect([...text.matchAll(/"([^"]+)"/g)].map((m) => m[1])).toEqual([...API_KEY_LOCATIONS]);
  });
});
