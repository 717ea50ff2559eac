/**
 * `supportedVersions` as a list (runtime/mcp/revisions.ts): the server serves exactly the revisions listed. In
 * the handshake era, initialize answers with the revision asked for if listed, else the newest listed
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation), and with the
 * lifecycle page's -32602 "Unsupported protocol version" when none is; in the 2026-07-28 era, a revision not
 * listed is -32022 UnsupportedProtocolVersionError with the list as `supported` (the schema's $def
 * UnsupportedProtocolVersionError). An unknown revision or an empty list is refused at construction.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { requireRevision } from '../../runtime/mcp/revisions.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { handshake, mcpPair, SERVER_INFO, withMeta } from '../helpers/mcp-pair.ts';

const TOOLS = { tools: [{ name: 't', inputSchema: { type: 'object' as const } }] };
const options = (supportedVersions: McpServerOptions['supportedVersions']): McpServerOptions => ({
  serverInfo: SERVER_INFO,
  capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
  handlers: { 'tools/list': () => TOOLS },
  supportedVersions,
});
// The revisions' packages load once, before the first request waits on an answer.
beforeAll(() => Promise.all(['2024-11-05', '2025-06-18', '2025-11-25', '2026-07-28'].map(requireRevision)), 60_000);

const initialize = (version: string) => ({ protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } });

describe('supportedVersions: a list of revisions', () => {
  it.each([
    ['a listed one is echoed', '2025-06-18', '2025-06-18'],
    ['one not listed gets the newest listed', '2025-11-25', '2025-06-18'],
    ['an unknown one gets the newest listed', '1999-01-01', '2025-06-18'],
  ])('initialize negotiates among the listed: %s', async (_, asked, agreed) => {
    const pair = mcpPair(options(['2024-11-05', '2025-06-18']));
    expect((await handshake(pair, asked))['protocolVersion']).toBe(agreed);
    await pair.close();
  });

  it('initialize with no handshake revision listed is -32602 with the revisions served', async () => {
    const pair = mcpPair(options(['2026-07-28']));
    const { response } = await pair.request('initialize', initialize('2025-11-25'), 1);
    expect(response['error']).toEqual({
      code: -32602,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28'], requested: '2025-11-25' },
    });
    await pair.close();
  });

  it('serves 2026-07-28 when listed, and lists exactly the list in server/discover', async () => {
    const pair = mcpPair(options(['2025-11-25', '2026-07-28']));
    expect((await pair.request('tools/list', withMeta())).response['result']).toMatchObject(TOOLS);
    const discover = (await pair.request('server/discover', withMeta())).response['result'];
    expect(discover).toMatchObject({ supportedVersions: ['2026-07-28', '2025-11-25'] });
    await pair.close();
  });

  it('a 2026-07-28 request to a server listing handshake revisions only is -32022 with the list', async () => {
    const pair = mcpPair(options(['2025-11-25']));
    const { response } = await pair.request('tools/list', withMeta(), 1);
    expect(response['error']).toEqual({
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2025-11-25'], requested: '2026-07-28' },
    });
    await pair.close();
  });

  it('refuses an unknown revision and an empty list at construction, in one line', () => {
    expect(() => new McpServer(options(['2026-07-28', '2026-13-01']))).toThrow(
      'supportedVersions: "2026-13-01" is not an MCP revision (2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)',
    );
    expect(() => new McpServer(options([]))).toThrow('supportedVersions: an empty list serves no MCP revision');
  });
});
