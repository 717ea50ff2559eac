// bench/servers/stop — how the bench stops the plain-JavaScript servers it starts: each serves until its stdin
// closes, then runs `close` and exits (ours do the same: bench/lib/stdin-stop.ts, as `wiregen serve --http --exit-on-stdin-close` does).
export function untilStdinCloses(close) {
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    void Promise.resolve(close()).finally(() => process.exit(0));
  };
  process.stdin.on('end', end);
  process.stdin.on('close', end);
  process.stdin.resume();
}

/** Listens on 127.0.0.1 (any free port), prints `{"url": …}` when listening, stops when stdin closes. */
export function listenAndAnnounce(http, path = '/mcp', extra = {}) {
  http.listen(0, '127.0.0.1', () => {
    const { port } = http.address();
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}${path}`, ...extra })}\n`);
  });
  untilStdinCloses(
    () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  );
}
