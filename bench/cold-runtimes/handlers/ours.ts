/**
 * @module bench/cold-runtimes/handlers/ours — the bench's add server (samples/recorded-server.ts, the server
 * every HTTP part measures) as a fetch handler: `mcpFetchHandler`, with `allowedHosts` the loopback names as
 * listenMcpHttp sets them on loopback. Exported as a module Worker exports it (`export default { fetch }`), for
 * Bun.serve, Deno.serve and workerd alike (bench/cold-runtimes/bundle.ts).
 */
import { catalogServerOptions, mcpFetchHandler, McpServer } from '@wiregen/runtime/mcp';
import sample from '../../../samples/recorded-server.ts';

const fetch = mcpFetchHandler(new McpServer(catalogServerOptions(sample)), { allowedHosts: ['127.0.0.1', 'localhost', '[::1]'] });

export default { fetch: (request: Request): Promise<Response> => fetch(request) };
