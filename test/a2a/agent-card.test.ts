/**
 * The agent card at /.well-known/agent-card.json (§8.2, §8.6): public (no version header needed), served as
 * the card's JSON; with the SDK's behaviour a weak ETag over the canonical JSON and 304 to a matching
 * If-None-Match (the recordings' ETag); with the kit's no ETag at all (kit/README.md).
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../helpers/golden.ts';
import { KIT_BEHAVIOUR, SDK_BEHAVIOUR } from '../../runtime/a2a/types.ts';
import { agentPool, testCard } from '../helpers/a2a-server.ts';
import { send } from '../helpers/http-client.ts';

const pool = agentPool();
afterEach(() => pool.closeAll());
const CARD_PATH = '/.well-known/agent-card.json';
const executor = { execute: async () => {} };
const etagOf = (card: unknown) => `W/"${createHash('sha256').update(canonicalJson(card)).digest('hex')}"`;

describe('agent card, SDK behaviour', () => {
  it('200 with the card, application/json and a weak ETag over its canonical JSON; no version header needed', async () => {
    const a = await pool.start({ executor, behaviour: SDK_BEHAVIOUR });
    const reply = await send(`${a.url}${CARD_PATH}`, { method: 'GET' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['etag']).toBe(etagOf(testCard()));
    expect(reply.json).toEqual(testCard());
    expect(reply.text).toBe(canonicalJson(testCard()));
  });

  it.each([
    ['the ETag', (etag: string) => etag],
    ['a list holding it', (etag: string) => `W/"other", ${etag}`],
    ['*', () => '*'],
  ])('If-None-Match with %s: 304, no body, the ETag again', async (_, match) => {
    const a = await pool.start({ executor, behaviour: SDK_BEHAVIOUR });
    const etag = etagOf(testCard());
    const reply = await send(`${a.url}${CARD_PATH}`, { method: 'GET', headers: { 'if-none-match': match(etag) } });
    expect(reply.status).toBe(304);
    expect(reply.text).toBe('');
    expect(reply.headers['etag']).toBe(etag);
  });

  it('If-None-Match with another ETag: 200 with the card', async () => {
    const a = await pool.start({ executor, behaviour: SDK_BEHAVIOUR });
    const reply = await send(`${a.url}${CARD_PATH}`, { method: 'GET', headers: { 'if-none-match': 'W/"0000"' } });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual(testCard());
  });

  it('a different card has a different ETag', async () => {
    const card = { ...testCard(), version: '2.0.0' };
    const a = await pool.start({ executor, behaviour: SDK_BEHAVIOUR, card });
    const reply = await send(`${a.url}${CARD_PATH}`, { method: 'GET' });
    expect(reply.headers['etag']).toBe(etagOf(card));
    expect(reply.headers['etag']).not.toBe(etagOf(testCard()));
  });
});

describe('agent card, kit behaviour', () => {
  it('no ETag, and If-None-Match is ignored (200 with the card)', async () => {
    const a = await pool.start({ executor, behaviour: KIT_BEHAVIOUR });
    const plain = await send(`${a.url}${CARD_PATH}`, { method: 'GET' });
    expect(plain.status).toBe(200);
    expect(plain.headers).not.toHaveProperty('etag');
    expect(plain.json).toEqual(testCard());
    const conditional = await send(`${a.url}${CARD_PATH}`, { method: 'GET', headers: { 'if-none-match': '*' } });
    expect(conditional.status).toBe(200);
    expect(conditional.json).toEqual(testCard());
  });
});

describe('GetExtendedAgentCard (§3.3.4)', () => {
  const extended = { ...testCard({ streaming: true, extendedAgentCard: true }), description: 'For callers who signed in.' };
  it('not declared by the card: -32004; declared but none configured: -32007; declared and configured: the card', async () => {
    const undeclared = await pool.start({ executor });
    expect((await undeclared.rpc('GetExtendedAgentCard', {})).error).toMatchObject({ code: -32004 });
    const unconfigured = await pool.start({ executor, card: testCard({ streaming: true, extendedAgentCard: true }) });
    expect((await unconfigured.rpc('GetExtendedAgentCard', {})).error).toMatchObject({
      code: -32007,
      message: 'Extended Card not configured',
      data: [{ reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED' }],
    });
    const rest = await unconfigured.rest('GET', '/rest/extendedAgentCard');
    expect(rest.status).toBe(400);
    expect(rest.json).toMatchObject({ error: { code: 400, status: 'FAILED_PRECONDITION', message: 'Extended Card not configured' } });
    const configured = await pool.start({ executor, card: testCard({ streaming: true, extendedAgentCard: true }), extendedCard: extended });
    expect((await configured.rpc('GetExtendedAgentCard', {})).result).toEqual(extended);
  });
});

describe('the client and authentication in front of the protocol', () => {
  it('a 401 reaches the caller as an A2aClientError with the status and the WWW-Authenticate challenge, on both bindings', async () => {
    const { A2aClientError, jsonRpcTransport, restTransport } = await import('../../runtime/a2a/client.ts');
    const { Client } = await import('../../generated/a2a-1.0/index.ts');
    const challenge = 'Bearer realm="test"';
    const a = await pool.start(
      { executor },
      { authenticate: (req) => (req.headers.authorization === 'Bearer ok' ? { ok: true } : { ok: false, challenge }) },
    );
    for (const transport of [jsonRpcTransport(`${a.url}/a2a`), restTransport(`${a.url}/rest`)]) {
      const err = await new Client(transport).getTask({ id: 'x' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(A2aClientError);
      expect(err).toMatchObject({
        status: 401,
        challenge,
        code: 401,
        message: `HTTP 401 Unauthorized (WWW-Authenticate: ${challenge})`,
        data: { error: 'unauthorized' },
      });
    }
    const signedIn = new Client(jsonRpcTransport(`${a.url}/a2a`, { headers: { authorization: 'Bearer ok' } }));
    expect(await signedIn.getTask({ id: 'x' }).catch((e: unknown) => e)).toMatchObject({ code: -32001, status: undefined });
  });
});
