/**
 * @module test/a2a/card-address — where the cards say the agent is (A2aServer.advertiseAt, http-routes.ts
 * cardAt): every interface URL moved under the base with its path kept, the extended card too, a signed card
 * left as signed; the served card and its ETag follow; `publicUrl` on the adapters does the same, while the
 * routes stay at the card's own paths.
 */
import { describe, expect, it } from 'vitest';
import { A2aHttpHandler } from '../../runtime/a2a/http.ts';
import { cardAt } from '../../runtime/a2a/http-routes.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import type { AgentCard } from '../../runtime/a2a/types.ts';
import { testCard, type Json } from '../helpers/a2a-server.ts';

const card = (): AgentCard => ({
  ...testCard({ streaming: true, extendedAgentCard: true }),
  supportedInterfaces: [
    { url: 'https://research.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: 'http://127.0.0.1:41241/rest/v1?x=1', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    { url: 'https://research.example.com/', protocolBinding: 'GRPC', protocolVersion: '1.0' },
  ],
});

const urls = (c: AgentCard) => c.supportedInterfaces.map((i) => i.url);
const executor = { execute: async () => undefined };

describe('cardAt', () => {
  it('keeps each path (and query) under the base origin and path', () => {
    expect(urls(cardAt(card(), 'http://127.0.0.1:5000'))).toEqual([
      'http://127.0.0.1:5000/a2a',
      'http://127.0.0.1:5000/rest/v1?x=1',
      'http://127.0.0.1:5000',
    ]);
    expect(urls(cardAt(card(), 'https://agents.example.com/research/'))).toEqual([
      'https://agents.example.com/research/a2a',
      'https://agents.example.com/research/rest/v1?x=1',
      'https://agents.example.com/research',
    ]);
  });

  it('refuses a base that is not an absolute http(s) URL, in one line', () => {
    expect(() => cardAt(card(), '/relative')).toThrow(/^publicUrl "\/relative" is not an absolute URL$/);
    expect(() => cardAt(card(), 'ftp://x.example.com')).toThrow(/is not an http\(s\) URL$/);
  });
});

describe('A2aServer.advertiseAt', () => {
  it('moves the public and the extended card; the served card and its ETag follow', async () => {
    const server = new A2aServer({ card: card(), extendedCard: { ...card(), name: 'Extended' }, executor, log: () => undefined });
    const handler = new A2aHttpHandler(server);
    const get = async () => {
      const res = await handler.fetch(new Request('http://127.0.0.1/.well-known/agent-card.json'));
      return { etag: res.headers.get('etag'), body: (await res.json()) as Json };
    };
    const before = await get();
    expect(before.body.supportedInterfaces[0].url).toBe('https://research.example.com/a2a');
    expect(server.advertiseAt('http://127.0.0.1:6000')).toBe(true);
    const after = await get();
    expect(after.body.supportedInterfaces.map((i: Json) => i.url)).toEqual([
      'http://127.0.0.1:6000/a2a',
      'http://127.0.0.1:6000/rest/v1?x=1',
      'http://127.0.0.1:6000',
    ]);
    expect(after.etag).not.toBe(before.etag);
    expect(urls(server.getExtendedAgentCard())[0]).toBe('http://127.0.0.1:6000/a2a');
    // The options keep the card as given; the routes stay at its paths.
    expect(urls(server.options.card)[0]).toBe('https://research.example.com/a2a');
    expect(handler.owns({ target: '/a2a' } as Parameters<A2aHttpHandler['owns']>[0])).toBe(true);
  });

  it('leaves a signed card as it was signed, and says so', () => {
    const signed = { ...card(), signatures: [{ protected: 'e30', signature: 'c2ln' }] };
    const server = new A2aServer({ card: signed, executor, log: () => undefined });
    expect(server.advertiseAt('http://127.0.0.1:6000')).toBe(false);
    expect(server.card).toBe(signed);
  });

  it('publicUrl on an adapter advertises under it; its own path is the proxy’s, not a route', async () => {
    const server = new A2aServer({ card: card(), executor, log: () => undefined });
    const handler = new A2aHttpHandler(server, { publicUrl: 'https://agents.example.com/research' });
    const res = await handler.fetch(new Request('http://127.0.0.1/.well-known/agent-card.json'));
    expect(((await res.json()) as Json).supportedInterfaces[0].url).toBe('https://agents.example.com/research/a2a');
    expect(handler.owns({ target: '/a2a' } as Parameters<A2aHttpHandler['owns']>[0])).toBe(true);
    expect(handler.owns({ target: '/research/a2a' } as Parameters<A2aHttpHandler['owns']>[0])).toBe(false);
  });
});
