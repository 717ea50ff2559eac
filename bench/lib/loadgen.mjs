// bench/lib/loadgen.mjs — the load generator: autocannon in a process of its own (plain Node, no loader), so
// it never shares an event loop with the server under test. Reads one JSON config from argv[2]:
//   {url, method, headers, body, connections, pipelining, duration, amount?}
// and prints one JSON line: req/s, latency percentiles and error counts. autocannon's own latency histogram
// has a resolution of 1 ms, too coarse for a loopback server, so the percentiles are computed here from the
// response times autocannon reports for each response (its `response` event, in ms with µs precision);
// autocannon's own (integer ms) figures are kept under `autocannonLatency`.
import autocannon from 'autocannon';

const cfg = JSON.parse(process.argv[2]);
let times = new Float64Array(1 << 16);
let n = 0;
const instance = autocannon({
  url: cfg.url,
  method: cfg.method ?? 'POST',
  headers: cfg.headers ?? {},
  body: cfg.body,
  connections: cfg.connections,
  pipelining: cfg.pipelining ?? 1,
  duration: cfg.duration,
  ...(cfg.amount ? { amount: cfg.amount } : {}),
  timeout: 10,
});
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  if (statusCode < 200 || statusCode > 299) return;
  if (n === times.length) {
    const bigger = new Float64Array(times.length * 2);
    bigger.set(times);
    times = bigger;
  }
  times[n++] = responseTime;
});
const result = await instance;
const sorted = times.subarray(0, n).sort();
const pct = (p) => (n ? sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))] : null);
let sum = 0;
for (let i = 0; i < n; i++) sum += sorted[i];
const r3 = (x) => (x === null ? null : Math.round(x * 1000) / 1000);
process.stdout.write(
  `${JSON.stringify({
    reqPerSec: result.requests.average,
    total: result.requests.total,
    durationS: result.duration,
    latency: { average: r3(n ? sum / n : null), p50: r3(pct(50)), p90: r3(pct(90)), p99: r3(pct(99)), max: r3(n ? sorted[n - 1] : null), samples: n },
    autocannonLatency: { average: result.latency.average, p50: result.latency.p50, p99: result.latency.p99 },
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  })}\n`,
);
