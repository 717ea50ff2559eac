/**
 * @module kit/ids — the kit's deterministic sources: UUID-shaped ids from a seeded generator (one per agent
 * and one for the client side, so the order of calls across agents never changes an id) and the clock that
 * starts at 2026-10-06T09:00:00Z and moves 250 ms each time it stamps a task or a status.
 */
import { createHash } from 'node:crypto';

/** When the kit's clocks start (kit/README.md). */
export const CLOCK_START = '2026-10-06T09:00:00.000Z';
/** How far a clock moves per stamp. */
export const CLOCK_STEP_MS = 250;

/**
 * Ids for `seed`: the n-th is SHA-256(`<seed>:<n>`) laid out as a version-4 UUID (version and variant bits
 * set), so it looks and validates like `randomUUID()` but is the same on every run.
 */
export function seededIds(seed: string): () => string {
  let n = 0;
  return () => {
    const bytes = createHash('sha256').update(`${seed}:${++n}`).digest().subarray(0, 16);
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

/**
 * A clock read once per stamp (the runtime's `clock` option is called exactly when it stamps a new task or
 * status): the first reading is CLOCK_START, each later one CLOCK_STEP_MS after the one before.
 */
export function kitClock(start = CLOCK_START, stepMs = CLOCK_STEP_MS): () => Date {
  let next = Date.parse(start);
  return () => {
    const now = new Date(next);
    next += stepMs;
    return now;
  };
}
