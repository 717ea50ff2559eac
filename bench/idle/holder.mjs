// bench/idle/holder — the client side of the idle-memory part (bench/idle): opens `count` long-lived MCP
// streams or sessions on one server and holds them, in a process of its own so that the server's memory is
// all the server's. `node holder.mjs <url> <mode> <count>`, mode:
//   listen       2026-07-28 `subscriptions/listen` POSTs, each an SSE stream held open
//                (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports);
//   session-get  2025-11-25 sessions: initialize, notifications/initialized (Mcp-Session-Id), then the
//                session's GET SSE stream held open;
//   session      the same sessions without a GET stream.
// Each held stream has a socket of its own; the handshakes share a small keep-alive pool (16 sockets), so a
// server is not left holding a thousand idle keep-alive connections. Prints one line
// `{"opened": n, "failed": k, "error"?: …}` once all are open (or failed), then holds until stdin closes.
import { Agent, request } from 'node:http';

const [url, mode, countText] = process.argv.slice(2);
const count = Number(countText);
const target = new URL(url);
const handshakes = new Agent({ keepAlive: true, maxSockets: 16 });
const streams = new Agent({ keepAlive: false, maxSockets: Infinity });
const held = [];
const ACCEPT = 'application/json, text/event-stream';
const PARALLEL = 16;

/** One request; resolves with the response once its headers are in (`whole`: and its body read). */
function send(method, headers, body, agent, whole) {
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, method, headers, agent }, (res) => {
      if (!whole) return resolve({ res, req });
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ res, req, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

async function listen(n) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: n,
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true }, _meta: meta },
  });
  const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' };
  const { res, req } = await send('POST', headers, body, streams, false);
  hold(res, req, 'listen');
}

async function session(n, withGet) {
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: n,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'idle-holder', version: '1.0.0' } },
  });
  const first = await send('POST', { 'content-type': 'application/json', accept: ACCEPT }, init, handshakes, true);
  const sid = first.res.headers['mcp-session-id'];
  if (first.res.statusCode !== 200 || typeof sid !== 'string') throw new Error(`initialize: ${first.res.statusCode} ${first.text.slice(0, 200)}`);
  const version = '2025-11-25';
  const common = { accept: ACCEPT, 'mcp-session-id': sid, 'mcp-protocol-version': version };
  const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const ack = await send('POST', { ...common, 'content-type': 'application/json' }, note, handshakes, true);
  if (ack.res.statusCode !== 202) throw new Error(`notifications/initialized: ${ack.res.statusCode} ${ack.text.slice(0, 200)}`);
  if (!withGet) return;
  const { res, req } = await send('GET', { ...common, accept: 'text/event-stream' }, undefined, streams, false);
  hold(res, req, 'GET');
}

function hold(res, req, what) {
  if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('text/event-stream')) {
    res.resume();
    throw new Error(`${what}: ${res.statusCode} ${res.headers['content-type']}`);
  }
  // Read and drop what the server sends (keep-alive comments, a priming event): held, not buffered.
  res.on('data', () => {});
  res.on('error', () => {});
  held.push(req);
}

let next = 0;
let failed = 0;
let error;
async function worker() {
  while (next < count) {
    const n = next++;
    try {
      if (mode === 'listen') await listen(n);
      else if (mode === 'session-get') await session(n, true);
      else if (mode === 'session') await session(n, false);
      else throw new Error(`unknown mode ${mode}`);
    } catch (err) {
      failed++;
      error ??= String(err?.message ?? err);
    }
  }
}
await Promise.all(Array.from({ length: PARALLEL }, worker));
handshakes.destroy();
process.stdout.write(`${JSON.stringify({ opened: count - failed, failed, ...(error ? { error } : {}) })}\n`);
const end = () => {
  for (const req of held) req.destroy();
  process.exit(0);
};
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.resume();
