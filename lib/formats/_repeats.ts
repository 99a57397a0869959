/** One policy for repeated records in every reader; private to `@lib/formats`. */
import type { Decoder, Fields } from "./_json.ts";
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
 * content is a problem naming both lines (and the earlier line's file when one
 * `Repeats` spans several files).
 */
export class Repeats {
  #seen = new Map<string, { file: string; line: number; signature: string | number }>();
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
      this.#seen.set(key, { file: problems.file, line, signature });
      return true;
    }
    if (earlier.signature === signature) this.dropped++;
    else {
      const where = earlier.file === problems.file
        ? `line ${earlier.line}`
        : `${earlier.file}:${earlier.line}`;
      problems.add(line, field, `${what} is already on ${where} with other content`);
    }
    return false;
  }

  /**
   * Applies {@linkcode Repeats.keep} to a decoded record of `f`, marking the
   * record bad when it conflicts with an earlier one.
   *
   * @returns The record to keep, or undefined for a repeat.
   */
  record<T>(
    f: Fields,
    record: T | undefined,
    key: string,
    signature: string | number,
    field: string | undefined,
    what: string,
  ): T | undefined {
    if (record === undefined || !f.ok) return undefined;
    const before = f.problems.total;
    if (this.keep(key, signature, f.line, f.problems, field, what)) return record;
    if (f.problems.total > before) f.markBad();
    return undefined;
  }
}

/**
 * A decoder that applies `repeats` to each record it decodes, keyed by `key`
 * and compared by `content` (default: the whole record), as JSON (hashed).
 */
export function once<T>(
  decode: Decoder<T>,
  repeats: Repeats,
  key: (record: T) => string,
  field: string | undefined,
  what: (record: T) => string,
  content: (record: T) => unknown = (record) => record,
): Decoder<T> {
  return (f) => {
    const record = decode(f);
    if (record === undefined || !f.ok) return undefined;
    const signature = textHash(JSON.stringify(content(record)));
    return repeats.record(f, record, key(record), signature, field, what(record));
  };
}

/**
 * Runs a read with a fresh {@linkcode Repeats} and reports how many identical
 * repeats it dropped (after the read, also when the read is asynchronous).
 *
 * @param onDuplicates Told the number of identical repeats dropped.
 * @param read The read, given the repeats to apply.
 * @returns What the read returns.
 */
export function countRepeats<T>(
  onDuplicates: ((dropped: number) => void) | undefined,
  read: (repeats: Repeats) => T,
): T {
  const repeats = new Repeats();
  const out = read(repeats);
  if (out instanceof Promise) {
    return out.then((value) => {
      onDuplicates?.(repeats.dropped);
      return value;
    }) as T;
  }
  onDuplicates?.(repeats.dropped);
  return out;
}
