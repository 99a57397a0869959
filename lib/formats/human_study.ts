/**
 * Topic-level records of CRUX human studies: JSONL
 * `{"qid", "topic", "questions", "type", "docids", "report", "response"}`.
 *
 * @module
 */
import { decodeJsonl, decodeJsonlFile, type Fields } from "./_json.ts";

/** One human-study record: a topic, its questions, the documents shown and the texts. */
export interface HumanStudyRecord {
  qid: string;
  topic: string;
  /** Sub-questions in order, as released (placeholders included). */
  questions: string[];
  /**
   * 0-based indexes of placeholder questions ("NA": the topic had fewer real
   * sub-questions than slots); they are no items. Empty when none.
   */
  naQuestions: number[];
  type?: string;
  docids: string[];
  report?: string;
  response?: string;
}

function decode(f: Fields): HumanStudyRecord | undefined {
  const qid = f.string("qid", { coerce: true });
  const topic = f.string("topic");
  const questions = f.strings("questions", { optional: true }) ?? [];
  const type = f.string("type", { optional: true });
  const docids = f.strings("docids", { optional: true, coerce: true }) ?? [];
  const report = f.string("report", { optional: true });
  const response = f.string("response", { optional: true });
  if (qid === undefined || topic === undefined) return undefined;
  const naQuestions = questions.flatMap((q, i) => (/^\s*n\/?a\s*$/i.test(q) ? [i] : []));
  const out: HumanStudyRecord = { qid, topic, questions, naQuestions, docids };
  if (type !== undefined) out.type = type;
  if (report !== undefined) out.report = report;
  if (response !== undefined) out.response = response;
  return out;
}

/**
 * Parses human-study JSONL text. `questions` and `docids` default to empty lists;
 * placeholder questions ("NA") are listed in `naQuestions`.
 *
 * @param text The JSONL text.
 * @param opts `file` names the input in error messages.
 * @returns The records in file order.
 * @throws {InputError} Listing lines without `qid`/`topic` or with fields of the wrong type.
 * @example
 * ```ts
 * parseHumanStudy('{"qid": 3, "topic": "Report on ..."}\n', { file: "study.jsonl" });
 * // [{ qid: "3", topic: "Report on ...", questions: [], naQuestions: [], docids: [] }]
 * ```
 */
export function parseHumanStudy(text: string, opts: { file: string }): HumanStudyRecord[] {
  return decodeJsonl(text, opts.file, decode);
}

/**
 * Reads a human-study JSONL file.
 *
 * @param path The file.
 * @returns The records in file order.
 * @throws {InputError} As {@linkcode parseHumanStudy}.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const path = `${await Deno.makeTempDir()}/human_study.jsonl`; // e.g. the CRUX release's
 * await Deno.writeTextFile(path, '{"qid": 3, "topic": "Report on ..."}\n');
 * const records = await readHumanStudy(path);
 * assert.equal(records[0].qid, "3");
 * ```
 */
export function readHumanStudy(path: string): Promise<HumanStudyRecord[]> {
  return decodeJsonlFile(path, decode);
}
