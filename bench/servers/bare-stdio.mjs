// bench/servers/bare-stdio — the stdio ceiling: plain Node reading newline-delimited JSON-RPC on stdin
// (process.stdin 'data', split into lines, each parsed with JSON.parse to read its id) and writing, for each
// request, fixed bytes with that id: the bytes our server answers `tools/call` `add` 1 + 2 with. No
// validation, no dispatch, no tool. Both eras: `initialize` is answered with a fixed InitializeResult and
// turns the answers to the handshake era's bytes (an MCP stdio connection is one session); notifications
// (no id) are ignored. Plain JavaScript, no dependencies; exits when stdin ends.
//
// Every answer below is one real answer of ours, copied byte for byte (the id cut out): bench/lib/
// stdio-client.ts driving bench/servers/wiregen-stdio.ts from the built packages with the requests of
// bench/mcp-stdio/index.ts (tools/call add 1 + 2 in 2026-07-28; initialize asking for 2025-11-25, then the
// call), at commit cf0c256. test/bench/servers.test.ts checks they still equal ours.

/** A response line: `{"jsonrpc":"2.0","id":` + the request's id + the rest. */
const answer = (rest) => (id) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},${rest}\n`;

/** tools/call add 1 + 2 in 2026-07-28 (the request carries the envelope in `_meta`, no handshake). */
const CALL_STATELESS = answer(
  '"result":{"content":[{"type":"text","text":"3"}],"isError":false,"structuredContent":{"result":3},"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"fixture-server","version":"1.0.0"}}}}',
);
/** tools/call add 1 + 2 after `initialize` asking for 2025-11-25. */
const CALL_HANDSHAKE = answer('"result":{"content":[{"type":"text","text":"3"}],"isError":false,"structuredContent":{"result":3}}}');
/** The InitializeResult for `initialize` asking for 2025-11-25 (the bench client's handshake). */
const INITIALIZE = answer(
  '"result":{"protocolVersion":"2025-11-25","capabilities":{"prompts":{"listChanged":false},"resources":{"listChanged":false,"subscribe":false},"tools":{"listChanged":false}},"serverInfo":{"name":"fixture-server","version":"1.0.0"}}}',
);

let call = CALL_STATELESS;
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buf += chunk;
  let nl;
  while ((nl = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    if (!line.trim()) continue;
    const msg = JSON.parse(line);
    if (msg.id === undefined) continue;
    if (msg.method === 'initialize') {
      call = CALL_HANDSHAKE;
      process.stdout.write(INITIALIZE(msg.id));
    } else process.stdout.write(call(msg.id));
  }
});
process.stdin.on('end', () => process.exit(0));
