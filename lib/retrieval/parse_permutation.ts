/**
 * Reading a listwise reranker's answer (`[3] > [1] > [2]`) as a permutation.
 *
 * @module
 */

/** A window's order read from a model answer, with every repair counted. */
export interface Permutation {
  /** Positions in the window (from 0), each exactly once, best first. */
  order: number[];
  /** False when the answer names no identifier: `order` is then the input order. */
  parsed: boolean;
  /** Identifiers absent from the answer, appended in their input order. */
  missing: number;
  /** Repeated identifiers dropped (only the first mention counts). */
  repeated: number;
  /** Identifiers outside `[1]..[n]` dropped. */
  unknown: number;
}

/** A run of bracketed identifiers joined by `>`, `,` or spaces: `[2] > [1] > [3]`. */
const BRACKET_CHAIN = /\[\s*\d+\s*\](?:\s*(?:>|,|>>|\s)\s*\[\s*\d+\s*\])*/g;
/** A whole line of bare numbers joined by `>`: `2 > 1 > 3`. */
const BARE_CHAIN = /^\s*\d+(?:\s*>\s*\d+)+\s*$/;

/** The identifiers the answer states as its ranking, or undefined when it states none. */
function identifiers(text: string): number[] | undefined {
  let best: string | undefined;
  for (const m of text.matchAll(BRACKET_CHAIN)) {
    const count = (m[0].match(/\[/g) ?? []).length;
    if (!best || count > (best.match(/\[/g) ?? []).length) best = m[0];
  }
  if (best) return [...best.matchAll(/\d+/g)].map((d) => Number(d[0]));
  const line = text.split(/\r?\n/).find((l) => BARE_CHAIN.test(l.replace(/[`*]/g, "")));
  return line ? [...line.matchAll(/\d+/g)].map((d) => Number(d[0])) : undefined;
}

/**
 * Reads a listwise ranking of a window of `n` passages numbered `[1]..[n]`,
 * without guessing: the ranking is the longest run of bracketed identifiers
 * joined by `>` (or commas), or else a line of bare numbers joined by `>`;
 * numbers in prose are never read. Repeated identifiers are dropped after
 * their first mention, identifiers outside `1..n` are dropped, and identifiers
 * the answer leaves out are appended in their input order; each repair is
 * counted. An answer with no identifier at all is unparsed and keeps the input
 * order.
 *
 * @param text Model answer.
 * @param n Passages in the window (a positive integer).
 * @returns The permutation (positions from 0) and its repairs.
 * @throws {RangeError} When `n` is not a positive integer.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePermutation } from "@lib/retrieval/mod.ts";
 * assert.deepEqual(parsePermutation("[3] > [1] > [3] > [7]", 3), { order: [2, 0, 1], parsed: true, missing: 1, repeated: 1, unknown: 1 });
 * ```
 */
export function parsePermutation(text: string, n: number): Permutation {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`Cannot read a permutation of ${n} passages: use a positive integer`);
  }
  const ids = identifiers(text);
  if (!ids) {
    return { order: [...Array(n).keys()], parsed: false, missing: 0, repeated: 0, unknown: 0 };
  }
  const seen = new Set<number>();
  const order: number[] = [];
  let repeated = 0;
  let unknown = 0;
  for (const id of ids) {
    if (id < 1 || id > n) unknown++;
    else if (seen.has(id)) repeated++;
    else {
      seen.add(id);
      order.push(id - 1);
    }
  }
  let missing = 0;
  for (let i = 0; i < n; i++) {
    if (!seen.has(i + 1)) {
      order.push(i);
      missing++;
    }
  }
  return { order, parsed: true, missing, repeated, unknown };
}
