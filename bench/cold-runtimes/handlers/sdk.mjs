// bench/cold-runtimes/handlers/sdk — the peer's add server (bench/servers/v2-tool.mjs) behind the official SDK
// v2's web-standard entry, `createMcpHandler(factory).fetch` (@modelcontextprotocol/server 2.4.0: serves
// 2026-07-28, stateless fallback for 2025-era requests), with the Host and Origin checks its documentation puts
// in front of it for a fetch-based platform (the `createMcpHandler` doc comment: `hostHeaderValidationResponse`,
// `originValidationResponse` with the localhost lists). `export default { fetch }`, as a module Worker.
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import { addServer } from '../../servers/v2-tool.mjs';

const handler = createMcpHandler(addServer);

export default {
  async fetch(request) {
    const rejected =
      hostHeaderValidationResponse(request, localhostAllowedHostnames()) ?? originValidationResponse(request, localhostAllowedOrigins());
    return rejected ?? handler.fetch(request);
  },
};
