/**
 * Pairwise answer preferences (answer-quality studies, e.g. WebGPT comparisons),
 * JSONL `{"question", "answer_a", "answer_b", "preference"}` with preference in
 * [-1, 1]: positive prefers a, negative b, 0 a tie.
 *
 * @module
 */
import { decodeJsonl, type Fields } from "./_json.ts";
import { readText } from "./_lines.ts";

/** One human-labelled pair of answers to a question. */
export interface PreferenceLine {
  question: string;
  answerA: string;
  answerB: string;
  /** -1..1: positive prefers A, negative B, 0 a tie. */
  preference: number;
  /** The winner the preference implies. */
  human: "A" | "B" | "tie";
}

function decode(f: Fields): PreferenceLine | undefined {
  const question = f.string("question");
  const answerA = f.string("answer_a");
  const answerB = f.string("answer_b");
  const preference = f.number("preference");
  if (preference !== undefined && (preference < -1 || preference > 1)) {
    return f.fail("preference", `expected a number from -1 to 1, found ${preference}`);
  }
  if (
    question === undefined || answerA === undefined || answerB === undefined ||
    preference === undefined
  ) return undefined;
  const human = preference > 0 ? "A" : preference < 0 ? "B" : "tie";
  return { question, answerA, answerB, preference, human };
}

/**
 * Parses a pairwise preference file.
 *
 * @param text JSONL text.
 * @param opts `file` names the input in errors.
 * @returns The pairs in file order, each with the implied winner (`tie` for 0).
 * @throws {InputError} On malformed lines or a preference outside [-1, 1], with file, line and field.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePreferences } from "@lib/formats/mod.ts";
 * assert.deepEqual(parsePreferences('{"question": "Q?", "answer_a": "a", "answer_b": "b", "preference": -0.5}\n', {
 *   file: "prefs.jsonl",
 * })[0].human, "B");
 * ```
 */
export function parsePreferences(text: string, opts: { file: string }): PreferenceLine[] {
  return decodeJsonl(text, opts.file, decode);
}

/**
 * Reads a pairwise preference file (see {@linkcode parsePreferences}).
 *
 * @param path The JSONL file.
 * @returns The pairs in file order.
 * @throws {InputError} As {@linkcode parsePreferences}.
 * @example
 * ```ts
 * import { readPreferences } from "@lib/formats/mod.ts";
 * const pairs = await readPreferences("datasets/sample/preferences.jsonl");
 * ```
 */
export async function readPreferences(path: string): Promise<PreferenceLine[]> {
  return parsePreferences(await readText(path), { file: path });
}
