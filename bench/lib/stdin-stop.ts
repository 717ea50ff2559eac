/**
 * @module bench/lib/stdin-stop — every bench server serves until its stdin closes (how the bench stops the
 * servers it starts, as ours does), then runs `close` and exits.
 */
export function untilStdinCloses(close: () => void | Promise<void>): void {
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
