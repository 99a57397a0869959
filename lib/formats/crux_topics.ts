/**
 * CRUX topic files and query files, JSONL in three shapes:
 * older `{"example_id", "topic", "questions", "report"}`, newer `{"id", "request"}`,
 * and query files `{"id", "request" | "text" | "query" | "topic"}`. Optional
 * `title` and `summary` fields are kept (the bundled sample uses them).
 *
 * @module
 */
import { countRepeats, Repeats } from "./_repeats.ts";
import type { Topic } from "@lib/types/mod.ts";
import { decodeJsonl, decodeJsonlFile, type Fields } from "./_json.ts";
import { stripQuestionNumbering } from "./crux_subquestions.ts";

/** Topics read from a topic file, with the sub-questions older files carry. */
export interface TopicFile {
  topics: Topic[];
  /** Topic id -> sub-questions (numbering stripped), for topics that list them. */
  questions: Map<string, string[]>;
}

/** Options of the topic readers. */
export interface TopicOptions {
  /** Maps topic ids as written to the ids to use (e.g. `duc04-testb-N` -> `duc04-test-N`). */
  rewriteTopic?: (id: string) => string;
  /**
   * Receives the number of lines that repeated an earlier topic exactly (dropped).
   * A topic id repeated with other content is an error naming both lines.
   */
  onDuplicates?: (count: number) => void;
}

const ID_KEYS = ["example_id", "id", "qid", "topic_id"];
const REQUEST_KEYS = ["request", "text", "query", "topic"];

interface Row {
  topic: Topic;
  questions?: string[];
}

function decoder(opts: TopicOptions, repeats: Repeats) {
  const decode = (f: Fields): Row | undefined => {
    const idKey = f.first(ID_KEYS) ?? "id";
    const rawId = f.string(idKey, { coerce: true });
    const requestKey = f.first(REQUEST_KEYS) ?? "request";
    const request = f.string(requestKey);
    const title = f.string("title", { optional: true });
    const summary = f.string(f.first(["summary", "report"]) ?? "summary", { optional: true });
    const questions = f.strings("questions", { optional: true });
    if (rawId === undefined || request === undefined) return undefined;
    const topic: Topic = { topicId: opts.rewriteTopic ? opts.rewriteTopic(rawId) : rawId, request };
    if (title !== undefined) topic.title = title;
    if (summary !== undefined) topic.summary = summary;
    return { topic, questions: questions?.map(stripQuestionNumbering) };
  };
  return (f: Fields): Row | undefined => {
    const row = decode(f);
    if (!row) return undefined;
    const before = f.problems.total;
    const what = `topic ${JSON.stringify(row.topic.topicId)}`;
    if (repeats.keep(row.topic.topicId, JSON.stringify(row), f.line, f.problems, undefined, what)) {
      return row;
    }
    if (f.problems.total > before) f.markBad();
    return undefined;
  };
}

function collect(rows: Row[]): TopicFile {
  const questions = new Map<string, string[]>();
  for (const r of rows) if (r.questions) questions.set(r.topic.topicId, r.questions);
  return { topics: rows.map((r) => r.topic), questions };
}

/**
 * Parses topic JSONL text in any of the accepted shapes.
 *
 * @param text The JSONL text.
 * @param opts `file` for error messages; `rewriteTopic` maps ids.
 * @returns The topics and, for older files, their sub-questions.
 * @throws {InputError} Listing lines without an id (`example_id`/`id`/`qid`) or request text.
 * @example
 * ```ts
 * parseTopics('{"id": "t1", "request": "Report on ..."}\n', { file: "topics.jsonl" }).topics;
 * // [{ topicId: "t1", request: "Report on ..." }]
 * ```
 */
export function parseTopics(text: string, opts: TopicOptions & { file: string }): TopicFile {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => collect(decodeJsonl(text, opts.file, decoder(opts, repeats))),
  );
}

/**
 * Reads a topic file with the sub-questions it carries (older CRUX files).
 *
 * @param path The JSONL file.
 * @param opts `rewriteTopic` maps ids.
 * @returns The topics and their sub-questions.
 * @throws {InputError} As {@linkcode parseTopics}.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const { topics, questions } = await readCruxTopics("datasets/sample/topics.jsonl");
 * assert.equal(topics.length, 10);
 * ```
 */
export function readCruxTopics(path: string, opts: TopicOptions = {}): Promise<TopicFile> {
  return countRepeats(
    opts.onDuplicates,
    async (repeats) => collect(await decodeJsonlFile(path, decoder(opts, repeats))),
  );
}

/**
 * Reads a topic or query file as topics.
 *
 * @param path The JSONL file.
 * @param opts `rewriteTopic` maps ids.
 * @returns The topics in file order.
 * @throws {InputError} As {@linkcode parseTopics}.
 * @example
 * ```ts
 * const topics = await readTopicsFile("datasets/sample/topics.jsonl");
 * ```
 */
export async function readTopicsFile(path: string, opts: TopicOptions = {}): Promise<Topic[]> {
  return (await readCruxTopics(path, opts)).topics;
}
