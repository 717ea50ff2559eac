/**
 * @module serve/lifecycle — when `wiregen serve` stops, and how long it waits.
 *
 * Over HTTP the server is a long-running process (npm start under nohup, docker, systemd): its stdin is
 * never read (it may be /dev/null, closed or a terminal), and it stops on SIGTERM or SIGINT, or, with
 * `--exit-on-stdin-close`, when its stdin ends (how a test harness or a parent process stops it). Stopping
 * is graceful: no new connection is accepted, the requests in flight are given up to the shutdown timeout to
 * finish, then the server closes. A second signal stops at once.
 */
import type { IncomingMessage, Server } from 'node:http';

export type StopReason = 'SIGTERM' | 'SIGINT' | 'stdin';

/** The exit status of a process ended by a signal, as shells report it (128 + the signal's number). */
const SIGNAL_EXIT: Readonly<Record<'SIGTERM' | 'SIGINT', number>> = { SIGINT: 130, SIGTERM: 143 };

export interface StopRequest {
  /** The first of the stop requests that came. */
  readonly reason: Promise<StopReason>;
  /** Removes the listeners; a second signal after the first exits at once (with 128 + its number). */
  dispose(): void;
}

/** Resolves on SIGTERM, SIGINT, or (when `stdin`) the end of stdin, whichever comes first. */
export function stopRequested(options: { readonly stdin: boolean }, log: (line: string) => void): StopRequest {
  let settle!: (reason: StopReason) => void;
  const reason = new Promise<StopReason>((resolve) => (settle = resolve));
  let stopping = false;
  const onSignal = (signal: 'SIGTERM' | 'SIGINT') => {
    if (stopping) {
      log(`wiregen serve: ${signal} again: stopping now`);
      process.exit(SIGNAL_EXIT[signal]);
    }
    stopping = true;
    settle(signal);
  };
  const onTerm = () => onSignal('SIGTERM');
  const onInt = () => onSignal('SIGINT');
  const onEnd = () => {
    stopping = true;
    settle('stdin');
  };
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  if (options.stdin) {
    process.stdin.on('end', onEnd);
    process.stdin.on('close', onEnd);
    process.stdin.resume();
  }
  return {
    reason,
    dispose() {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      process.stdin.off('end', onEnd);
      process.stdin.off('close', onEnd);
    },
  };
}

/** The requests in flight on one node:http server that a graceful stop waits for. */
export interface InFlight {
  count(): number;
  /** Resolves true once none is left, false when `ms` passed first. */
  drained(ms: number): Promise<boolean>;
}

/**
 * Counts `http`'s requests from arrival until their response is finished or their connection closed, leaving
 * out those `longLived` says stay open until the server ends them (an MCP GET stream, a 2026-07-28
 * subscriptions/listen): the server's close ends those with their result.
 */
export function inFlight(http: Server, longLived: (req: IncomingMessage) => boolean): InFlight {
  let open = 0;
  const waiters = new Set<() => void>();
  http.on('request', (req: IncomingMessage, res) => {
    if (longLived(req)) return;
    open++;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      if (--open === 0) for (const w of [...waiters]) w();
    };
    res.once('finish', end);
    res.once('close', end);
  });
  return {
    count: () => open,
    drained: (ms) =>
      new Promise<boolean>((resolve) => {
        if (open === 0) return resolve(true);
        const timer = setTimeout(() => (waiters.delete(waiter), resolve(false)), ms);
        const waiter = () => (clearTimeout(timer), waiters.delete(waiter), resolve(true));
        waiters.add(waiter);
      }),
  };
}

/** Whether `promise` settles within `ms` (it keeps running either way). */
export function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, ms));
    promise.then(
      () => (clearTimeout(timer), resolve(true)),
      () => (clearTimeout(timer), resolve(true)),
    );
  });
}
