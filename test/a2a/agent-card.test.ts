/**
 * The agent card at /.well-known/agent-card.json (§8.2, §8.6): public (no version header needed), served as
 * the card's JSON; with the SDK's behaviour a weak ETag over the canonical JSON and 304 to a matching
 * If-None-Match (the recordings' ETag, seed 000); with the kit's no ETag at all (seed 003).
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
