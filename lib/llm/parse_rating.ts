// Reads a 0-5 rating from a model answer: an explicit "rating: N" or a number alone on a line.

import type { ParseResult } from "./types.ts";
import { plainAnswer } from "./plain_answer.ts";
import { finalAnswer } from "./final_answer.ts";
import { revision } from "./revision.ts";

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
/** A line (or clause after ";") that holds nothing but the number ("4", "[4]", "4.", "4/5", "Q1: 4", "4 - mostly answered"). */
const LONE = new RegExp(
  String.raw`^(?:(?:Q|question)\s*\d+\s*[:.)]\s*)?(?:\[\s*${NUM}\s*\]|${NUM})` +
    String.raw`\s*(?:\/\s*\d+|out\s+of\s+\d+)?` +
    String.raw`\s*(?:[.!]|\s[-–—]\s.*)?$`,
  "i",
);

/**
 * After a stated rating: it is only weighed ("a rating of 5 would require ...",
 * "rating 5 is too high", "a 5 is not warranted").
 */
const WEIGHED_AFTER = new RegExp(
  String.raw`^\s*(?:(?:would|could|might|may)\s+(?:seem|appear|look|sound)\b|` +
    String.raw`(?:would|could|might|will)\s+(?:only\s+)?(?:require|need|mean|imply|demand|` +
    String
      .raw`have|apply|fit\s+only|be\s+(?:too|for|if|reserved|given\s+(?:if|only|when)|justified\s+only|` +
    String.raw`appropriate\s+only|possible\s+only|an?\s+overstatement))|` +
    String.raw`(?:requires?|needs?|demands?|means?|implies|presupposes|overstates|understates)\b|` +
    String
      .raw`(?:is|seems?|feels?|looks?|appears?|would\s+be|'s)\s+(?:(?:far|much|a\s+bit|slightly|somewhat|clearly)\s+)?` +
    String
      .raw`(?:too|not|reserved|unwarranted|unjustified|excessive|overly|only\s+for|for\s+(?:answers|contexts)|` +
    String.raw`out\s+of\s+the\s+question)|` +
    String.raw`isn'?t|wouldn'?t|would\s+not|can(?:not|'?t)|doesn'?t|does\s+not|won'?t|will\s+not)`,
  "i",
);
/** Just before a stated rating: it is denied or compared ("not a 5", "rather than 5"). */
const DENIED_BEFORE =
  /\b(?:not|never|n't|than|instead\s+of|rather\s+than|from|above|below|between)\s+(?:(?:a|an|the)\s+)?$/i;
/** In the sentence before a stated rating: it is a condition's consequence ("if ..., the rating would be 5"). */
const CONDITION = /\b(?:if|unless|otherwise|whether)\b/i;
/** A hedge that is no condition: "If I had to choose, the rating is 3". */
const HEDGE =
  /\bif\s+(?:i|we)\s+(?:had|have|were|must)\s+(?:to\s+)?(?:choose|pick|say|rate|give|decide|assign|commit)\b/gi;
/** In the clause before a stated rating: it is conceded ("although a 4 might seem fair", "one could argue for a 5"). */
const CONCEDED =
  /\b(?:although|though|while|whereas|argue\s+for|argued\s+for|arguing\s+for|considered|tempted)\b/i;

/** Whether an explicit rating at `at` (length `len`) in `plain` is only weighed, not given. */
function weighed(plain: string, at: number, len: number): boolean {
  const before = plain.slice(0, at);
  const sentence = before.slice(
    Math.max(...[".", ";", "!", "?", "\n"].map((c) => before.lastIndexOf(c))) + 1,
  );
  const clause = sentence.slice(sentence.lastIndexOf(",") + 1);
  return WEIGHED_AFTER.test(plain.slice(at + len)) || DENIED_BEFORE.test(sentence) ||
    CONDITION.test(sentence.replace(HEDGE, "")) || CONCEDED.test(clause);
}

/**
 * Reads a graded answerability rating (0-5) the answer states, and nothing it
 * does not: an explicit "rating/score/grade: N" ("Rating (0-5): 4", "the
 * rating is 4", "Final score: 3/5", "<rating>4</rating>") or, failing that, a number standing alone
 * on a line or after a ";" ("4", "**4**", "[4]", "4/5"). Numbers inside ranges
 * ("(0-5)"), list and question numbers ("Q1:", "1."), counts in prose ("Based
 * on 2 passages") and ratings only weighed ("A rating of 5 would require the
 * full list", "rating 5 is too high", "not a 5", "if it named all, the rating
 * would be 5") are never read, nor is reasoning (`<think>` blocks). Conflicting statements (unless one says "final"), fractions
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
 * assert.deepEqual(parseRating("A rating of 5 would require every name.\n\n3"), { ok: true, value: 3 });
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
  const plain = plainAnswer(finalAnswer(text));
  const revised = revision(plain);
  if (revised) return fail(`the answer revises itself: ${revised}`);
  const explicit: { value: string; final: boolean }[] = [];
  for (const m of plain.matchAll(EXPLICIT)) {
    if (weighed(plain, m.index, m[0].length)) continue;
    explicit.push({ value: m[2] ?? m[3] ?? m[4] ?? m[5], final: Boolean(m[1]) });
  }
  let stated: string[];
  if (explicit.length) {
    const finals = explicit.filter((e) => e.final);
    stated = (finals.length ? finals : explicit).map((e) => e.value);
  } else {
    stated = plain.split(/\n|;/)
      .map((line) => LONE.exec(line.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => m[1] ?? m[2]);
  }
  if (!stated.length) return fail(`no rating ${min}-${max} stated`);
  const distinct = [...new Set(stated.map(Number))];
  if (distinct.length > 1) return fail(`conflicting ratings ${distinct.join(", ")}`);
  const value = distinct[0];
  if (!Number.isInteger(value)) return fail(`rating ${stated[0]} is not a whole number`);
  if (value < min || value > max) return fail(`rating ${value} is outside ${min}-${max}`);
  return { ok: true, value };
}
