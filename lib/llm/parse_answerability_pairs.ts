// Reads answerability pairs (`{"id", "question", "context"}` JSONL) for `crux judge`.

import type { AnswerabilityPair } from "./types.ts";

/**
 * Reads answerability pairs from JSONL: one `{"id", "question", "context"}`
 * object per line (blank lines skipped). All problems are collected first.
 *
 * @param text File contents.
 * @param opts `file`: name for error messages.
 * @returns The pairs in file order.
 * @throws {SyntaxError} Listing every bad line as `file:line: field: message`, and duplicate ids.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseAnswerabilityPairs('{"id":"a","question":"Who?","context":"Ann."}\n', { file: "p.jsonl" }), [{ id: "a", question: "Who?", context: "Ann." }]);
 * ```
 */
export function parseAnswerabilityPairs(text: string, opts: { file: string }): AnswerabilityPair[] {
  const pairs: AnswerabilityPair[] = [];
  const problems: string[] = [];
  const seen = new Map<string, { line: number; content: string }>();
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const at = `${opts.file}:${i + 1}`;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line);
    } catch {
      problems.push(`${at}: line is not valid JSON`);
      return;
    }
    if (!o || typeof o !== "object" || Array.isArray(o)) {
      problems.push(`${at}: expected an object with "id", "question" and "context"`);
      return;
    }
    const id = typeof o.id === "number" ? String(o.id) : o.id;
    const bad = [["id", id], ["question", o.question], ["context", o.context]]
      .filter(([, v]) => typeof v !== "string");
    for (const [field] of bad) problems.push(`${at}: ${field}: expected a string`);
    if (bad.length) return;
    const content = JSON.stringify([o.question, o.context]);
    const earlier = seen.get(id as string);
    if (earlier) {
      // An exact repeat is dropped; the same id for another pair is an error.
      if (earlier.content !== content) {
        problems.push(
          `${at}: id: "${id}" is already on line ${earlier.line} with another question or context`,
        );
      }
      return;
    }
    seen.set(id as string, { line: i + 1, content });
    pairs.push({ id: id as string, question: o.question as string, context: o.context as string });
  });
  if (!problems.length && !text.split("\n").some((l) => l.trim())) {
    problems.push(`${opts.file}: the file is empty; expected one JSON object per line`);
  }
  if (problems.length) {
    throw new SyntaxError(
      `Cannot read pairs "${opts.file}": ${problems.length} problem(s); each line needs {"id","question","context"}\n${
        problems.join("\n")
      }`,
    );
  }
  return pairs;
}
