// bench/servers/tmcp-stdio — tmcp 1.20 over stdio as its README runs it: `new StdioTransport(server).listen()`
// (@tmcp/transport-stdio 0.5.0), plain JavaScript, serving the same `add` as recorded-server (tmcp-tool.mjs).
import { StdioTransport } from '@tmcp/transport-stdio';
import { addServer } from './tmcp-tool.mjs';

new StdioTransport(addServer()).listen();
