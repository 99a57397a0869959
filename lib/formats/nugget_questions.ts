/**
 * Human nugget questions (TREC NeuCLIR / RAGTIME), JSONL
 * `{"id", "nuggets": [[question, answer_or_list_of_answers], ...]}`. A question may
 * repeat, once per answer; repeats are merged into one question with all answers.
 *
 * @module
 */
import { decodeJsonl, decodeJsonlFile, type Decoder, type Fields } from "./_json.ts";
import { countRepeats, once, Repeats } from "./_repeats.ts";
import { show } from "./_problems.ts";

/** One nugget question with its acceptable answers. */
export interface NuggetQuestion {
  question: string;
  answers: string[];
}

/** The nugget questions of one topic, in order of first appearance. */
export interface TopicNuggetQuestions {
  topicId: string;
  nuggets: NuggetQuestion[];
}

function decode(f: Fields): TopicNuggetQuestions | undefined {
  const topicId = f.string("id", { coerce: true });
  const list = f.array("nuggets");
  if (topicId === undefined || list === undefined) return undefined;
  const byQuestion = new Map<string, NuggetQuestion>();
  for (let i = 0; i < list.length; i++) {
    const pair = list[i];
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") {
      return f.fail(
        `nuggets[${i}]`,
        `expected [question, answer or list of answers], found ${show(pair)}`,
      );
    }
    const answers = typeof pair[1] === "string" ? [pair[1]] : pair[1];
    if (!Array.isArray(answers) || answers.some((a) => typeof a !== "string")) {
      return f.fail(
        `nuggets[${i}][1]`,
        `expected an answer string or a list of them, found ${show(pair[1])}`,
      );
    }
    const question = pair[0].trim();
    const entry = byQuestion.get(question) ?? { question, answers: [] };
    for (const a of answers as string[]) if (!entry.answers.includes(a)) entry.answers.push(a);
    byQuestion.set(question, entry);
  }
  return { topicId, nuggets: [...byQuestion.values()] };
}

function decodeOnce(repeats: Repeats): Decoder<TopicNuggetQuestions> {
  return once(decode, repeats, (r) => r.topicId, "id", (r) => `topic ${JSON.stringify(r.topicId)}`);
}

/**
 * Parses nugget-question JSONL text, merging repeated questions of a line. A
 * line repeating an earlier line of the same topic exactly is dropped (counted
 * through `onDuplicates`); the same topic with other nuggets is an error naming
 * both lines.
 *
 * @param text The JSONL text.
 * @param opts `file` names the input in error messages; `onDuplicates`.
 * @returns One record per topic.
 * @throws {InputError} Listing lines whose nuggets are not `[question, answer(s)]` pairs,
 *   and conflicting repeats.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseNuggetQuestions('{"id": "t1", "nuggets": [["Who?", "Ann"], ["Who?", ["Bo"]]]}', { file: "n.jsonl" }), [{ topicId: "t1", nuggets: [{ question: "Who?", answers: ["Ann", "Bo"] }] }]);
 * ```
 */
export function parseNuggetQuestions(
  text: string,
  opts: { file: string; onDuplicates?: (count: number) => void },
): TopicNuggetQuestions[] {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonl(text, opts.file, decodeOnce(repeats)),
  );
}

/**
 * Reads a nugget-question JSONL file.
 *
 * @param path The file.
 * @param opts `onDuplicates` as in {@linkcode parseNuggetQuestions}.
 * @returns One record per topic.
 * @throws {InputError} As {@linkcode parseNuggetQuestions}.
 * @example
 * ```ts
 * const path = `${await Deno.makeTempDir()}/nuggets.jsonl`;
 * await Deno.writeTextFile(path, '{"id": "t1", "nuggets": [["Who?", "Ann"], ["Who?", ["Bo"]]]}');
 * const topics = await readNuggetQuestions(path);
 * ```
 */
export function readNuggetQuestions(
  path: string,
  opts: { onDuplicates?: (count: number) => void } = {},
): Promise<TopicNuggetQuestions[]> {
  return countRepeats(opts.onDuplicates, (repeats) => decodeJsonlFile(path, decodeOnce(repeats)));
}
