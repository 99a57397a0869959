/**
 * Reading a listwise reranker's answer (`[3] > [1] > [2]`) as a permutation.
 *
 * @module
 */

import { finalAnswer } from "@lib/llm/final_answer.ts";
import { revision } from "@lib/llm/revision.ts";

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
const BARE_CHAIN =
  /^\s*(?:(?:final\s+)?(?:ranking|order|answer)\s*(?:is)?\s*:?\s*)?\d+(?:\s*>\s*\d+)+\s*\.?\s*$/i;
/** A numbered list of bracketed identifiers, one a line: `1. [2]`, `2) [3] - the dam's cost`. */
const LISTED = /^\s*(\d+)\s*[.):]\s*\[\s*(\d+)\s*\]/;

/** The identifiers of a numbered list `1. [2]`, `2. [3]`, ... numbered from 1 without a gap; else undefined. */
function listed(text: string): number[] | undefined {
  const items = text.split(/\r?\n/).map((l) => LISTED.exec(l.replace(/[`*]/g, "")))
    .filter((m): m is RegExpExecArray => m !== null);
  if (items.length < 2 || items.some((m, i) => Number(m[1]) !== i + 1)) return undefined;
  return items.map((m) => Number(m[2]));
}

/**
 * The identifiers the answer states as its ranking; undefined when it states
 * none, or when two different runs are equally long (two rankings, none final).
 */
function identifiers(answer: string): number[] | undefined {
  // `Passage [2] > Passage [1]`: the word before each identifier is no part of it.
  const text = answer.replace(/\b(?:passages?|documents?|docs?)\s*(?=\[\s*\d)/gi, "");
  const runs = [...text.matchAll(BRACKET_CHAIN)].map((m) =>
    [...m[0].matchAll(/\d+/g)].map((d) => Number(d[0]))
  );
  const longest = Math.max(0, ...runs.map((r) => r.length));
  // A numbered list counts when no chain of two or more is given.
  const list = longest < 2 ? listed(text) : undefined;
  if (list) return list;
  if (runs.length) {
    const best = [...new Set(runs.filter((r) => r.length === longest).map((r) => r.join(" ")))];
    if (best.length > 1 && longest > 1) return undefined;
    return best[0].split(" ").map(Number);
  }
  const lines = text.split(/\r?\n/).filter((l) => BARE_CHAIN.test(l.replace(/[`*]/g, "")));
  const distinct = [
    ...new Set(lines.map((l) => [...l.matchAll(/\d+/g)].map((d) => d[0]).join(" "))),
  ];
  if (distinct.length !== 1) return undefined;
  return distinct[0].split(" ").map(Number);
}

/**
 * Reads a listwise ranking of a window of `n` passages numbered `[1]..[n]`,
 * without guessing: the ranking is the longest run of bracketed identifiers
 * joined by `>` (or commas; `Passage [2] > Passage [1]` too), a numbered
 * list of identifiers one a line (`1. [2]`, `2. [1]`) when no such run is, or else a line of bare
 * numbers joined by `>` (`Ranking: 2 > 1 > 3`);
 * numbers in prose are never read, nor is reasoning (`<think>` blocks, so a
 * first guess made while thinking is not the answer). Two different rankings
 * of the same length in the final answer, or a later correction ("Correction:
 * [2] should come first"), make it unparsed: neither is taken as final. Repeated identifiers are dropped after
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
 * assert.deepEqual(parsePermutation("<think>First guess [1] > [2] > [3]</think>\n[3] > [2] > [1]", 3).order, [2, 1, 0]);
 * ```
 */
export function parsePermutation(text: string, n: number): Permutation {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`Cannot read a permutation of ${n} passages: use a positive integer`);
  }
  const answer = finalAnswer(text);
  const ids = revision(answer) ? undefined : identifiers(answer);
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
