/**
 * A small seeded pseudo-random generator (mulberry32) so every fixture is
 * reproducible from its seed on any machine.
 *
 * @module
 */
import { seededRandom } from "@lib/metrics/mod.ts";

/** Deterministic random source used by the fixture generators. */
export class Rng {
  /** Returns a float in [0, 1). */
  readonly next: () => number;

  /**
   * @param seed Any 32-bit integer; the same seed always yields the same sequence.
   */
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }

  /** Returns an integer in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Returns one element of `items`, chosen uniformly. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Returns an index drawn with the given (unnormalised) weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i];
      if (x < 0) return i;
    }
    return weights.length - 1;
  }

  /** Returns a shuffled copy of `items` (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}
