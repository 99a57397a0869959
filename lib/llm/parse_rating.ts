import type { ParseResult } from "./types.ts";
import { plainAnswer } from "./plain_answer.ts";

const NUM = String.raw`(-?\d+(?:\.\d+)?)`;
/** After a number: it does not open a range ("0-5", "1 to 5"). */
const NO_RANGE = String.raw`(?![\d.]*\s*(?:-|–|to)\s*\d)`;
/** "rating: 4", "Rating (0-5): 4", "the score is 4", "a rating of 4", "Answer: 4", "<rating>4</rating>". */
const EXPLICIT = new RegExp(
  String.raw`\b(final\s+)?(?:rating|score|grade)\b\s*(?:\([^()\n]*\)\s*)?` +
    String
      .raw`(?::|=|-(?=\s)|\bis\b|\bof\b|\bwould\s+be\b|\bwas\b)?\s*${NUM}${NO_RANGE}` +
    String.raw`|\banswer\s*:\s*${NUM}${NO_RANGE}` +
    String
      .raw`|\b(?:rate[sd]?|give|giving)\s+(?:it|this|the\s+context)\s*(?:as|at)?\s*(?:an?\s+)?${NUM}${NO_RANGE}` +
    String.raw`|<(?:rating|score|grade)>\s*${NUM}\s*<\/(?:rating|score|grade)>`,
  "gi",
);
/** A line that holds nothing but the number ("4", "4.", "4/5", "Q1: 4", "4 - mostly answered"). */
const LONE = new RegExp(
  String.raw`^(?:(?:Q|question)\s*\d+\s*[:.)]\s*)?${NUM}\s*(?:\/\s*\d+|out\s+of\s+\d+)?` +
    String.raw`\s*(?:[.!]|\s[-–—]\s.*)?$`,
  "i",
);

/**
 * Reads a graded answerability rating (0-5) the answer states, and nothing it
 * does not: an explicit "rating/score/grade: N" ("Rating (0-5): 4", "the
 * rating is 4", "Final score: 3/5", "<rating>4</rating>") or, failing that, a number standing alone
 * on a line ("4", "**4**", "4/5"). Numbers inside ranges ("(0-5)"), list and
 * question numbers ("Q1:", "1.") and counts in prose ("Based on 2 passages")
 * are never read. Conflicting statements (unless one says "final"), fractions
 * (4.5), out-of-range and truncated answers ("Rating (0-5") are parse failures
 * carrying the raw text (callers record rating -1).
 *
 * @param text Model output.
 * @returns The rating, or a failure carrying the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseRating("Rating (0-5): 4"), { ok: true, value: 4 });
 * assert.deepEqual(parseRating("Based on 2 passages, the rating is 4."), { ok: true, value: 4 });
 * assert.equal(parseRating("Rating (0-5").ok, false);
 * ```
 */
export function parseRating(text: string): ParseResult<number> {
  return parseScale(text, 0, 5);
}

/**
 * The rule of {@link parseRating} for any integer scale `min`..`max`.
 *
 * @param text Model output.
 * @param min Lowest grade.
 * @param max Highest grade.
 * @returns The grade, or a failure carrying the raw text.
 */
export function parseScale(text: string, min: number, max: number): ParseResult<number> {
  const fail = (reason: string): ParseResult<number> => ({ ok: false, raw: text, reason });
  const plain = plainAnswer(text);
  const explicit: { value: string; final: boolean }[] = [];
  for (const m of plain.matchAll(EXPLICIT)) {
    explicit.push({ value: m[2] ?? m[3] ?? m[4] ?? m[5], final: Boolean(m[1]) });
  }
  let stated: string[];
  if (explicit.length) {
    const finals = explicit.filter((e) => e.final);
    stated = (finals.length ? finals : explicit).map((e) => e.value);
  } else {
    stated = plain.split("\n")
      .map((line) => LONE.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => m[1]);
  }
  if (!stated.length) return fail(`no rating ${min}-${max} stated`);
  const distinct = [...new Set(stated.map(Number))];
  if (distinct.length > 1) return fail(`conflicting ratings ${distinct.join(", ")}`);
  const value = distinct[0];
  if (!Number.isInteger(value)) return fail(`rating ${stated[0]} is not a whole number`);
  if (value < min || value > max) return fail(`rating ${value} is outside ${min}-${max}`);
  return { ok: true, value };
}
