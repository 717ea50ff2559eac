// bench/cold-runtimes/handlers/hello — the floor: a fetch handler that answers every request with a fixed
// JSON-RPC result and loads nothing, so its cold start is the runtime's own (for workerd, miniflare's: what
// `wrangler dev` users pay before any Worker code runs).
export default {
  fetch: () => new Response('{"jsonrpc":"2.0","id":1,"result":{}}', { headers: { 'content-type': 'application/json' } }),
};
