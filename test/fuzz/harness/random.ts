/**
 * @module test/fuzz/harness/random — a seeded generator (mulberry32: 32-bit state, fast, reproducible), so
 * that a fuzz run with the same seed sends the same messages in the same order.
 */

export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick: no items');
    return items[this.int(items.length)]!;
  }

  /** One of `weighted` ([weight, value] pairs), by weight. */
  weighted<T>(weighted: readonly (readonly [number, T])[]): T {
    const total = weighted.reduce((sum, [w]) => sum + w, 0);
    let at = this.next() * total;
    for (const [w, value] of weighted) if ((at -= w) < 0) return value;
    return weighted.at(-1)![1];
  }

  /** A short random string of printable ASCII, unicode, control characters and JSON metacharacters. */
  string(maxLength = 12): string {
    const alphabet = ['a', 'Z', '0', ' ', '"', '\\', '/', '.', '~', '=', '!', '\t', '\n', '\u0000', 'é', '€', '😀', '\ud800', '{', ']', ':', ','];
    let out = '';
    for (let i = this.int(maxLength + 1); i > 0; i--) out += this.pick(alphabet);
    return out;
  }
}
