/**
 * CRUX answerability judgments, JSONL with one line per (topic, item):
 * older `{"example_id", "pid", "rating": [...]}` or newer `{"id", "docid", "rating": [...]}`.
 * Ratings are integers 0-5 in question order; -1 means the judge's output could not be parsed.
 *
 * @module
 */
import { decodeLine, type Fields } from "./_json.ts";
import { readLines, splitLines } from "./_lines.ts";
import { Problems, show } from "./_problems.ts";
import { readTextFile } from "./read_text_file.ts";
import { itemTopic } from "./passage_id.ts";
import { rewriteItem, rewriteOwnTopic } from "./topic_rewrite.ts";

/** The ratings of one item (passage or report) for every sub-question of its topic. */
export interface Judgment {
  topicId: string;
  itemId: string;
  /** One rating per question, in question order; -1 = unparseable. */
  ratings: number[];
}

/** Options of the judgment readers. */
export interface JudgmentOptions {
  /** Maps topic ids as written (and the topic prefix of item ids) to the ids to use. */
  rewriteTopic?: (id: string) => string;
  /**
   * Number of sub-questions per topic (after rewriting). When a topic is listed, a
   * rating list of another length is an error; otherwise every list of a topic must
   * have the length of the topic's first list.
   */
  questionCounts?: ReadonlyMap<string, number>;
  /** Receives the number of lines that repeated an earlier judgment exactly (dropped). */
  onDuplicates?: (count: number) => void;
}

/** What a ratings document aligned to a run is told when read as JSONL. */
const ALIGNED_DOCUMENT =
  "this is one JSON document {topic: [[ratings], ...]} (ratings aligned to a run), " +
  "not JSONL with one judgment per line; read it with --aligned-to RUN";

/** Whether a parsed value is a ratings document aligned to a run: `{topic: [[...], ...]}`. */
function isAlignedDocument(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const lists = Object.values(value);
  return lists.length > 0 && lists.every((l) => Array.isArray(l) && l.every(Array.isArray));
}

class JudgmentDecoder {
  readonly seen = new Map<string, { length: number; line: number }>();
  /** First judgment of each (topic, item), keyed `topic\0item` after rewriting. */
  readonly judged = new Map<string, { line: number; ratings: string }>();
  /** Lines repeating an earlier judgment exactly (dropped). */
  duplicates = 0;
  constructor(readonly opts: JudgmentOptions) {}

  decode = (f: Fields): Judgment | undefined => {
    const keys = ["id", "docid", "example_id", "pid", "rating"];
    if (f.line === 1 && !keys.some((k) => f.has(k))) {
      const values = Object.values(f.obj);
      if (values.length && values.every(Array.isArray)) {
        f.fail("", ALIGNED_DOCUMENT);
        return undefined;
      }
    }
    const older = f.has("example_id") || f.has("pid");
    const itemField = older ? "pid" : "docid";
    const rawTopic = f.string(older ? "example_id" : "id", { coerce: true });
    const rawItem = f.string(itemField, { coerce: true });
    const list = f.array("rating");
    if (rawTopic === undefined || rawItem === undefined || list === undefined) return undefined;
    const topicId = this.opts.rewriteTopic ? this.opts.rewriteTopic(rawTopic) : rawTopic;
    // A passage of another topic's document follows its own topic's rewrite.
    const itemId = this.opts.rewriteTopic
      ? (itemTopic(rawItem) === undefined
        ? rewriteItem(rawItem, rawTopic, topicId)
        : rewriteOwnTopic(rawItem, this.opts.rewriteTopic))
      : rawItem;
    const key = `${topicId}\0${itemId}`;
    const earlier = this.judged.get(key);
    const signature = JSON.stringify(list);
    if (earlier !== undefined) {
      if (earlier.ratings === signature) {
        this.duplicates++;
        return undefined; // the same judgment again: dropped and counted
      }
      return f.fail(
        itemField,
        `passage ${JSON.stringify(rawItem)} of topic ${
          JSON.stringify(rawTopic)
        } is already judged differently on line ${earlier.line}`,
      );
    }
    this.judged.set(key, { line: f.line, ratings: signature });
    for (let i = 0; i < list.length; i++) {
      const r = list[i];
      if (typeof r !== "number" || !Number.isInteger(r) || r < -1 || r > 5) {
        return f.fail(
          `rating[${i}]`,
          `expected an integer from -1 to 5, found ${show(r)}`,
        );
      }
    }
    const known = this.opts.questionCounts?.get(topicId);
    if (known !== undefined && known !== list.length) {
      return f.fail(
        "rating",
        `expected ${known} ratings (one per sub-question of topic "${topicId}"), found ${list.length}`,
      );
    }
    const first = this.seen.get(topicId);
    if (known === undefined && first && first.length !== list.length) {
      return f.fail(
        "rating",
        `expected ${first.length} ratings like line ${first.line} of topic "${topicId}", found ${list.length}`,
      );
    }
    if (!first) this.seen.set(topicId, { length: list.length, line: f.line });
    return { topicId, itemId, ratings: list as number[] };
  };
}

/**
 * Parses judgment JSONL text (both CRUX variants).
 *
 * @param text The JSONL text.
 * @param opts `file` for error messages; `rewriteTopic` and `questionCounts` as in {@linkcode JudgmentOptions}.
 * @returns One judgment per non-empty line, in file order.
 * @throws {InputError} Listing lines with missing ids, ratings outside -1..5 or
 *   non-integers, rating lists of the wrong length, a second, different judgment of
 *   the same (topic, passage) (compared after `rewriteTopic`; an identical repeat is
 *   dropped and counted through `onDuplicates`), and an empty file.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseJudgments('{"id": "t1", "docid": "t1:0#0", "rating": [5, -1]}\n', { file: "j.jsonl" }), [{ topicId: "t1", itemId: "t1:0#0", ratings: [5, -1] }]);
 * ```
 */
export function parseJudgments(text: string, opts: JudgmentOptions & { file: string }): Judgment[] {
  const problems = new Problems(opts.file);
  const decoder = new JudgmentDecoder(opts);
  const out: Judgment[] = [];
  const lines = splitLines(text);
  for (let i = 0; i < lines.length; i++) {
    const j = decodeLine(lines[i], i + 1, problems, decoder.decode);
    if (j) out.push(j);
  }
  if (!lines.some((l) => l.trim() !== "")) {
    problems.add(0, undefined, "the file is empty; expected one JSON object per line");
  }
  opts.onDuplicates?.(decoder.duplicates);
  problems.throwIfAny();
  return out;
}

/**
 * Streams a judgment file; problems are thrown together after the last line as one
 * `InputError`. Memory holds the (topic, passage) keys seen, to detect duplicates.
 *
 * @param path The JSONL file.
 * @param opts See {@linkcode JudgmentOptions}.
 * @returns An async iterator over the judgments.
 * @throws {InputError} After the last judgment, when any line was bad (as
 *   {@linkcode parseJudgments}, duplicates included).
 * @example
 * ```ts
 * for await (const j of streamJudgments("datasets/sample/judgments.jsonl")) console.log(j.itemId);
 * ```
 */
export async function* streamJudgments(
  path: string,
  opts: JudgmentOptions = {},
): AsyncGenerator<Judgment> {
  const problems = new Problems(path);
  const decoder = new JudgmentDecoder(opts);
  let lineNo = 0;
  let nonBlank = 0;
  for await (const line of readLines(path)) {
    if (line.trim() !== "") nonBlank++;
    // A ratings document aligned to a run spread over several lines: one problem,
    // not one per line.
    if (lineNo === 0 && /^\s*\{\s*("[^"]*"\s*:\s*\[?\s*)?$/.test(line)) {
      let whole: unknown;
      try {
        whole = JSON.parse(await readTextFile(path));
      } catch {
        // not one document either: each line is told below
      }
      if (isAlignedDocument(whole)) {
        problems.add(1, undefined, ALIGNED_DOCUMENT);
        problems.throwIfAny();
      }
    }
    const j = decodeLine(line, ++lineNo, problems, decoder.decode);
    if (j) yield j;
  }
  if (nonBlank === 0) {
    problems.add(0, undefined, "the file is empty; expected one JSON object per line");
  }
  opts.onDuplicates?.(decoder.duplicates);
  problems.throwIfAny();
}

/**
 * Reads a whole judgment file.
 *
 * @param path The JSONL file.
 * @param opts See {@linkcode JudgmentOptions}.
 * @returns The judgments in file order.
 * @throws {InputError} As {@linkcode parseJudgments}, naming `path`.
 * @example
 * ```ts
 * import { prefixRewrite, readJudgments } from "@lib/formats/mod.ts";
 * const judgments = await readJudgments("datasets/sample/judgments.jsonl", {
 *   rewriteTopic: prefixRewrite(["duc04-testb-=duc04-test-"]),
 * });
 * ```
 */
export async function readJudgments(path: string, opts: JudgmentOptions = {}): Promise<Judgment[]> {
  const out: Judgment[] = [];
  for await (const j of streamJudgments(path, opts)) out.push(j);
  return out;
}
