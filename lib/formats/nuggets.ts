/**
 * TREC RAG 2024 nugget files (AutoNuggetizer), JSONL
 * `{"qid", "query", "nuggets": [{"text", "importance": "vital" | "okay"}]}`.
 *
 * @module
 */
import type { Question } from "@lib/types/mod.ts";
import { decodeJsonl, decodeJsonlFile, type Decoder, type Fields } from "./_json.ts";
import { countRepeats, once, Repeats } from "./_repeats.ts";
import { formatJsonl } from "./jsonl.ts";

/** Nugget importance labels. */
export const IMPORTANCE = ["vital", "okay"] as const;

/** One nugget; `importance` is absent before the importance step. */
export interface Nugget {
  text: string;
  importance?: "vital" | "okay";
}

/** The nuggets of one query. */
export interface NuggetSet {
  qid: string;
  query: string;
  nuggets: Nugget[];
}

function decode(f: Fields): NuggetSet | undefined {
  const qid = f.string("qid", { coerce: true });
  const query = f.string("query");
  const nuggets: Nugget[] = [];
  for (const n of f.objects("nuggets") ?? []) {
    const text = n.string("text");
    const importance = n.oneOf("importance", IMPORTANCE, { optional: true });
    if (text !== undefined) nuggets.push(importance ? { text, importance } : { text });
  }
  return qid === undefined || query === undefined ? undefined : { qid, query, nuggets };
}

/** Options of the nugget readers. */
export interface NuggetReadOptions {
  /**
   * Receives the number of lines that repeated an earlier line of the same query
   * exactly, which are dropped; the same query with other nuggets is an error
   * naming both lines.
   */
  onDuplicates?: (count: number) => void;
}

function decodeOnce(repeats: Repeats): Decoder<NuggetSet> {
  return once(decode, repeats, (r) => r.qid, "qid", (r) => `query ${JSON.stringify(r.qid)}`);
}

/**
 * Parses nugget JSONL text.
 *
 * @param text The JSONL text.
 * @param opts `file` names the input in error messages; `onDuplicates`.
 * @returns One nugget set per query, in file order.
 * @throws {InputError} Listing missing fields, importance values other than vital/okay
 *   and a query repeated with other nuggets (naming both lines).
 * @example
 * ```ts
 * parseNuggets('{"qid": "q1", "query": "why?", "nuggets": [{"text": "a", "importance": "vital"}]}', { file: "n.jsonl" });
 * ```
 */
export function parseNuggets(
  text: string,
  opts: NuggetReadOptions & { file: string },
): NuggetSet[] {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonl(text, opts.file, decodeOnce(repeats)),
  );
}

/**
 * Reads a nugget JSONL file.
 *
 * @param path The file.
 * @param opts `onDuplicates` as in {@linkcode parseNuggets}.
 * @returns One nugget set per query.
 * @throws {InputError} As {@linkcode parseNuggets}.
 * @example
 * ```ts
 * const path = `${await Deno.makeTempDir()}/nuggets.jsonl`;
 * await Deno.writeTextFile(path, '{"qid": "q1", "query": "why?", "nuggets": [{"text": "a", "importance": "vital"}]}');
 * const sets = await readNuggets(path);
 * ```
 */
export function readNuggets(
  path: string,
  opts: NuggetReadOptions = {},
): Promise<NuggetSet[]> {
  return countRepeats(opts.onDuplicates, (repeats) => decodeJsonlFile(path, decodeOnce(repeats)));
}

/**
 * Formats nugget sets as AutoNuggetizer JSONL.
 *
 * @param sets The nugget sets.
 * @returns The JSONL text.
 * @example
 * ```ts
 * formatNuggets([{ qid: "q1", query: "why?", nuggets: [{ text: "a", importance: "okay" }] }]);
 * ```
 */
export function formatNuggets(sets: readonly NuggetSet[]): string {
  return formatJsonl(sets.map((s) => ({ qid: s.qid, query: s.query, nuggets: s.nuggets })));
}

/**
 * Turns a nugget set into workspace questions (kind `nugget`, ordinal from 1,
 * questionId `{qid}#q{ordinal}`).
 *
 * @param set The nuggets of one query.
 * @returns One question per nugget, in order.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(nuggetQuestions({ qid: "q1", query: "?", nuggets: [{ text: "a", importance: "vital" }] }), [{ topicId: "q1", questionId: "q1#q1", kind: "nugget", ordinal: 1, text: "a", importance: "vital" }]);
 * ```
 */
export function nuggetQuestions(set: NuggetSet): Question[] {
  return set.nuggets.map((n, i) => {
    const q: Question = {
      topicId: set.qid,
      questionId: `${set.qid}#q${i + 1}`,
      kind: "nugget",
      ordinal: i + 1,
      text: n.text,
    };
    if (n.importance) q.importance = n.importance;
    return q;
  });
}
