/**
 * @module bench/servers/wiregen-stdio — recorded-server as a user's built server runs it: its behaviours and the
 * generated module compiled to one file (bench/lib/built.ts), the runtime and the generated packages imported
 * from their built `dist/` (plain JavaScript, no tsx), served on stdio. Exits when stdin closes.
 */
import { catalogServerOptions, McpServer } from '@wiregen/runtime/mcp';
import { stdioTransport } from '@wiregen/runtime/transports';
import sample from '../../samples/recorded-server.ts';

const server = new McpServer(catalogServerOptions(sample));
server.connect(stdioTransport(process.stdin, process.stdout));
