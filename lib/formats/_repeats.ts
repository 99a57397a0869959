/** One policy for repeated records in every reader; private to `@lib/formats`. */
import type { Problems } from "./_problems.ts";

/** A 53-bit hash of a text (to compare long contents without keeping them). */
export function textHash(s: string): number {
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * Remembers each record's key, line and content signature. A record repeating an
 * earlier one exactly is dropped and counted; one with the same key and other
 * content is a problem naming both lines.
 */
export class Repeats {
  #seen = new Map<string, { line: number; signature: string | number }>();
  /** Identical repeats dropped so far. */
  dropped = 0;

  /**
   * @returns true to keep the record; false for a repeat (counted, or reported as a
   *   problem at `line` when its content differs).
   */
  keep(
    key: string,
    signature: string | number,
    line: number,
    problems: Problems,
    field: string | undefined,
    what: string,
  ): boolean {
    const earlier = this.#seen.get(key);
    if (earlier === undefined) {
      this.#seen.set(key, { line, signature });
      return true;
    }
    if (earlier.signature === signature) this.dropped++;
    else {
      problems.add(line, field, `${what} is already on line ${earlier.line} with other content`);
    }
    return false;
  }
}
