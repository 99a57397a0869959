/**
 * CRUX sub-question files: JSON `{"topic_id": ["q1", "q2", ...]}`.
 *
 * @module
 */
import { parseJsonDocument } from "./_json.ts";
import { readText } from "./_lines.ts";
import { Problems, show } from "./_problems.ts";

/**
 * Removes list numbering and surrounding whitespace left by generation:
 * `"\n2. Who ...?"` becomes `"Who ...?"`. Handles `2.`, `2)`, `Q2:`, `-` and `*` prefixes.
 *
 * @param question A question as generated.
 * @returns The clean question.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(stripQuestionNumbering("\n\n12. What happened next?"), "What happened next?");
 * ```
 */
export function stripQuestionNumbering(question: string): string {
  return question.trim().replace(/^(?:(?:Q(?:uestion)?\s*)?\d+\s*[.):](?!\d)|[-*\u2022])\s*/i, "")
    .trim();
}

/**
 * Parses sub-question JSON. Questions keep file order (they are numbered from 1
 * in that order) and have their numbering stripped.
 *
 * @param text The JSON text.
 * @param opts `file` names the input in errors; `rewriteTopic` maps topic ids.
 * @returns Topic id -> questions.
 * @throws {InputError} When the text is not a JSON object of string lists.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseSubquestions('{"t1": ["1. Who?", "2. When?"]}', { file: "q.json" }).get("t1"), ["Who?", "When?"]);
 * ```
 */
export function parseSubquestions(
  text: string,
  opts: { file: string; rewriteTopic?: (id: string) => string },
): Map<string, string[]> {
  const doc = parseJsonDocument(text, opts.file);
  const problems = new Problems(opts.file);
  const out = new Map<string, string[]>();
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    problems.add(
      0,
      undefined,
      `expected a JSON object {"topic_id": ["question", ...]}, found ${show(doc)}`,
    );
    problems.throwIfAny();
  }
  for (const [topic, list] of Object.entries(doc as Record<string, unknown>)) {
    if (!Array.isArray(list)) {
      problems.add(0, topic, `expected a list of questions, found ${show(list)}`);
      continue;
    }
    const bad = list.findIndex((q) => typeof q !== "string");
    if (bad >= 0) {
      problems.add(0, `${topic}[${bad}]`, `expected a question string, found ${show(list[bad])}`);
      continue;
    }
    const id = opts.rewriteTopic ? opts.rewriteTopic(topic) : topic;
    const questions = (list as string[]).map(stripQuestionNumbering);
    const earlier = out.get(id);
    // The same questions under two ids that rewrite alike are kept once.
    if (earlier && JSON.stringify(earlier) !== JSON.stringify(questions)) {
      problems.add(0, topic, `topic "${id}" appears twice after rewriting, with other questions`);
    }
    if (!earlier) out.set(id, questions);
  }
  problems.throwIfAny();
  return out;
}

/**
 * Reads a sub-question JSON file.
 *
 * @param path The JSON file.
 * @param opts `rewriteTopic` maps topic ids (e.g. `duc04-testb-N` -> `duc04-test-N`).
 * @returns Topic id -> questions, numbering stripped.
 * @throws {InputError} As {@linkcode parseSubquestions}.
 * @example
 * ```ts
 * const questions = await readSubquestions("datasets/sample/questions.json");
 * ```
 */
export async function readSubquestions(
  path: string,
  opts: { rewriteTopic?: (id: string) => string } = {},
): Promise<Map<string, string[]>> {
  return parseSubquestions(await readText(path), { file: path, ...opts });
}
