/**
 * Fast scanners for well-formed TREC runs and qrels, used by `crux eval` on
 * large files. They accept exactly what the strict parsers of `@lib/formats`
 * accept and return `undefined` at the first line they do not like, so the
 * caller re-parses with the strict parser to get its precise error message.
 *
 * @module
 */
import type { Qrel, RunRow } from "@lib/types/mod.ts";
import { decimal, integer, scanFields as fields } from "./_scan_fields.ts";

/** `text[a, b)`, reusing `prev` when equal (topic ids repeat line after line). */
function reuse(text: string, a: number, b: number, prev: string): string {
  return b - a === prev.length && text.startsWith(prev, a) ? prev : text.slice(a, b);
}

/**
 * Scans a TREC run (`topic Q0 docid rank score tag`).
 *
 * @param text The run's text.
 * @param opts `run`: run name for every row (default: each line's tag).
 * @returns The rows in file order, or `undefined` when any line is malformed.
 * @example
 * ```ts
 * import { scanRun } from "@lib/metrics/mod.ts";
 * scanRun("q1 Q0 d1 1 2.5 bm25\n"); // [{ run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 }]
 * ```
 */
export function scanRun(text: string, opts: { run?: string } = {}): RunRow[] | undefined {
  const rows: RunRow[] = [];
  const b = new Int32Array(14);
  let topic = "";
  let tag = "";
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos < text.length) {
    let end = text.indexOf("\n", pos);
    if (end < 0) end = text.length;
    const n = fields(text, pos, end, b, 6);
    pos = end + 1;
    if (n === 0) continue;
    if (n !== 6) return undefined;
    const rank = integer(text, b[6], b[7]);
    const score = decimal(text, b[8], b[9]);
    if (Number.isNaN(rank) || Number.isNaN(score)) return undefined;
    topic = reuse(text, b[0], b[1], topic);
    const run = opts.run ?? (tag = reuse(text, b[10], b[11], tag));
    rows.push({ run, topicId: topic, docId: text.slice(b[4], b[5]), rank, score });
  }
  return rows;
}

/**
 * Scans TREC qrels (`topic iteration docid grade`); `subtopic` is the
 * iteration column.
 *
 * @param text The qrels text.
 * @returns The judgments in file order, or `undefined` when any line is malformed.
 * @example
 * ```ts
 * import { scanQrels } from "@lib/metrics/mod.ts";
 * scanQrels("q1 0 d1 2\n"); // [{ topicId: "q1", subtopic: "0", docId: "d1", grade: 2 }]
 * ```
 */
export function scanQrels(text: string): Qrel[] | undefined {
  const rows: Qrel[] = [];
  const b = new Int32Array(10);
  let topic = "";
  let subtopic = "0";
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos < text.length) {
    let end = text.indexOf("\n", pos);
    if (end < 0) end = text.length;
    const n = fields(text, pos, end, b, 4);
    pos = end + 1;
    if (n === 0) continue;
    if (n !== 4) return undefined;
    const grade = integer(text, b[6], b[7]);
    if (Number.isNaN(grade)) return undefined;
    topic = reuse(text, b[0], b[1], topic);
    subtopic = reuse(text, b[2], b[3], subtopic);
    rows.push({ topicId: topic, docId: text.slice(b[4], b[5]), grade, subtopic });
  }
  return rows;
}
