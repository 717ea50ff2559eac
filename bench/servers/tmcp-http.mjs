// bench/servers/tmcp-http — tmcp 1.20 over Streamable HTTP as its README runs it on Node: `HttpTransport`
// (@tmcp/transport-http 0.9.0) answering `transport.respond(request)` inside `createRequestListener` of
// @remix-run/node-fetch-server on plain node:http, 404 for what it does not serve, bound to loopback. Prints
// `{"url": …}` when listening on 127.0.0.1; exits when stdin closes (./stop.mjs).
import * as http from 'node:http';
import { createRequestListener } from '@remix-run/node-fetch-server';
import { HttpTransport } from '@tmcp/transport-http';
import { listenAndAnnounce } from './stop.mjs';
import { addServer } from './tmcp-tool.mjs';

const transport = new HttpTransport(addServer());
const httpServer = http.createServer(
  createRequestListener(async (request) => {
    const response = await transport.respond(request);
    return response ?? new Response(null, { status: 404 });
  }),
);
listenAndAnnounce(httpServer);
