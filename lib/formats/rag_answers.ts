/**
 * TREC RAG 2024 answer files, JSONL with one line per topic and run:
 * `{"run_id", "topic_id", "topic", "references": [docid, ...], "response_length",
 * "answer": [{"text", "citations": [index into references, ...]}]}`.
 *
 * @module
 */
import type { Generation } from "@lib/types/mod.ts";
import { decodeJsonl, decodeJsonlFile, type Fields } from "./_json.ts";
import { formatJsonl } from "./jsonl.ts";

/** One answer sentence with the references it cites (indices into `references`). */
export interface AnswerSentence {
  text: string;
  citations: number[];
}

/** One run's answer to one topic. */
export interface RagAnswer {
  runId: string;
  topicId: string;
  topic: string;
  references: string[];
  responseLength?: number;
  answer: AnswerSentence[];
}

function decode(f: Fields): RagAnswer | undefined {
  const runId = f.string("run_id", { coerce: true });
  const topicId = f.string("topic_id", { coerce: true });
  const topic = f.string("topic", { optional: true }) ?? "";
  const references = f.strings("references", { coerce: true });
  const responseLength = f.number("response_length", { optional: true });
  const answer: AnswerSentence[] = [];
  for (const s of f.objects("answer") ?? []) {
    const text = s.string("text");
    const citations = s.array("citations", { optional: true }) ?? [];
    const bad = citations.findIndex((c) =>
      typeof c !== "number" || !Number.isInteger(c) || c < 0 || c >= (references?.length ?? 0)
    );
    if (bad >= 0) {
      s.fail(
        `citations[${bad}]`,
        `expected an index into references (0-${(references?.length ?? 0) - 1}), found ${
          JSON.stringify(citations[bad])
        }`,
      );
    } else if (text !== undefined) answer.push({ text, citations: citations as number[] });
  }
  if (runId === undefined || topicId === undefined || references === undefined) return undefined;
  const out: RagAnswer = { runId, topicId, topic, references, answer };
  if (responseLength !== undefined) out.responseLength = responseLength;
  return out;
}

/**
 * Parses answer JSONL text, checking that citations index into `references`.
 *
 * @param text The JSONL text.
 * @param opts `file` names the input in error messages; `onDuplicates` receives the
 *   number of lines repeating an earlier answer of the same run and topic exactly
 *   (dropped).
 * @returns The answers in file order, one per run and topic.
 * @throws {InputError} Listing missing fields, out-of-range citations and a run
 *   answering a topic again differently (naming both lines).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const [a] = parseRagAnswers(
 *   '{"run_id": "r", "topic_id": "q1", "topic": "?", "references": ["d1"], "answer": [{"text": "A.", "citations": [0]}]}',
 *   { file: "answers.jsonl" },
 * );
 * assert.equal(answerText(a), "A.");
 * ```
 */
export function parseRagAnswers(
  text: string,
  opts: { file: string; onDuplicates?: (count: number) => void },
): RagAnswer[] {
  const counts = { dropped: 0 };
  const out = decodeJsonl(text, opts.file, once(counts));
  opts.onDuplicates?.(counts.dropped);
  return out;
}

/**
 * The decoder with the repeat rule of every reader: a line repeating an earlier
 * answer of the same run and topic exactly is dropped and counted; another answer
 * of the same run and topic is an error naming both lines.
 */
function once(counts: { dropped: number }) {
  const seen = new Map<string, { line: number; signature: string }>();
  return (f: Fields): RagAnswer | undefined => {
    const answer = decode(f);
    if (!answer) return undefined;
    const key = `${answer.runId}\0${answer.topicId}`;
    const signature = JSON.stringify(answer);
    const earlier = seen.get(key);
    if (!earlier) {
      seen.set(key, { line: f.line, signature });
      return answer;
    }
    if (earlier.signature === signature) {
      counts.dropped++;
      return undefined;
    }
    return f.fail(
      "topic_id",
      `run ${JSON.stringify(answer.runId)} answers topic ${
        JSON.stringify(answer.topicId)
      } again with another answer (first on line ${earlier.line}); keep one line per topic and run`,
    );
  };
}

/**
 * Reads an answer JSONL file.
 *
 * @param path The file.
 * @param opts `onDuplicates` as in {@linkcode parseRagAnswers}.
 * @returns The answers in file order, one per run and topic.
 * @throws {InputError} As {@linkcode parseRagAnswers}.
 * @example
 * ```ts
 * const path = `${await Deno.makeTempDir()}/answers.jsonl`;
 * await Deno.writeTextFile(path, '{"run_id": "r", "topic_id": "q1", "topic": "?", "references": ["d1"], "answer": [{"text": "A.", "citations": [0]}]}');
 * const answers = await readRagAnswers(path);
 * ```
 */
export async function readRagAnswers(
  path: string,
  opts: { onDuplicates?: (count: number) => void } = {},
): Promise<RagAnswer[]> {
  const counts = { dropped: 0 };
  const out = await decodeJsonlFile(path, once(counts));
  opts.onDuplicates?.(counts.dropped);
  return out;
}

/**
 * Formats answers as TREC RAG JSONL (snake_case fields).
 *
 * @param answers The answers.
 * @returns The JSONL text.
 * @example
 * ```ts
 * formatRagAnswers([{ runId: "r", topicId: "q1", topic: "?", references: [], answer: [] }]);
 * ```
 */
export function formatRagAnswers(answers: readonly RagAnswer[]): string {
  return formatJsonl(answers.map((a) => ({
    run_id: a.runId,
    topic_id: a.topicId,
    topic: a.topic,
    references: a.references,
    response_length: a.responseLength ?? wordCount(answerText(a)),
    answer: a.answer,
  })));
}

/**
 * The answer's text: its sentences joined by single spaces.
 *
 * @param answer The answer.
 * @returns The plain text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(answerText({ runId: "r", topicId: "q", topic: "", references: [], answer: [{ text: "A.", citations: [] }, { text: "B.", citations: [] }] }), "A. B.");
 * ```
 */
export function answerText(answer: RagAnswer): string {
  return answer.answer.map((s) => s.text).join(" ");
}

/**
 * Turns an answer into a workspace generation (`run` = run id, `contextIds` = references).
 *
 * @param answer The answer.
 * @returns The generation record.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerGeneration, answerText, type RagAnswer } from "@lib/formats/mod.ts";
 * const a: RagAnswer = {
 *   runId: "r1",
 *   topicId: "q1",
 *   topic: "Who won?",
 *   references: ["d1"],
 *   answer: [{ text: "Ann won.", citations: [0] }],
 * };
 * assert.equal(answerGeneration(a).text, answerText(a));
 * ```
 */
export function answerGeneration(answer: RagAnswer): Generation {
  return {
    run: answer.runId,
    topicId: answer.topicId,
    text: answerText(answer),
    contextIds: [...answer.references],
  };
}

function wordCount(text: string): number {
  const t = text.trim();
  return t === "" ? 0 : t.split(/\s+/).length;
}
