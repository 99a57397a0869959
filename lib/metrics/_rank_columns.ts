import { type RunTable, type RunTopicColumns, topicRows } from "./run_table.ts";
import type { QrelsTopic } from "./_qrels_topic.ts";
import type { RankOrder } from "./_rank_topic.ts";
import { compareBytes } from "./_byte_order.ts";
import { spanHash, spansEqual, tableSize } from "./_span_hash.ts";

/** A topic of a run table ranked the evaluator's way, without slicing document ids. */
export interface RankedColumns {
  /** Row indices in rank order, each document once. */
  rows: number[];
  duplicates: number;
  /** Grade per rank (-Infinity = unjudged), as `TopicView.grades()`. */
  grades: Float64Array;
  /** Document ids in rank order, sliced on demand. */
  docs: () => string[];
}

/** Ranks one topic of a table: trec_eval order (or rank order), best occurrence of each document kept. */
export function rankColumns(
  table: RunTable,
  topic: RunTopicColumns,
  order: RankOrder,
  qrels: QrelsTopic | undefined,
): RankedColumns {
  const { text, start, end, score, rank } = table;
  const byScore = (i: number, j: number) =>
    score[j] - score[i] ||
    compareBytes(text.slice(start[j], end[j]), text.slice(start[i], end[i]));
  const compare = order === "rank"
    ? (i: number, j: number) => rank[i] - rank[j] || byScore(i, j)
    : byScore;
  let idx: number[] = topicRows(topic);
  let sorted = true;
  for (let k = 1; k < idx.length && sorted; k++) sorted = compare(idx[k - 1], idx[k]) <= 0;
  if (!sorted) idx = idx.slice().sort(compare);
  const kept = dedupe(table, idx);
  const grades = new Float64Array(kept.length);
  for (let r = 0; r < kept.length; r++) {
    const i = kept[r];
    // dedupe() left the hash of the r-th kept row in scratchHashes[r].
    const g = qrels?.gradeOfHashed(text, start[i], end[i], scratchHashes[r]);
    grades[r] = g === undefined || g < 0 ? -Infinity : g;
  }
  const docs = () => kept.map((i) => text.slice(start[i], end[i]));
  return { rows: kept, duplicates: idx.length - kept.length, grades, docs };
}

let scratchTable = new Int32Array(256).fill(-1);
let scratchHashes = new Int32Array(256);

/** Keeps the first occurrence of each document id (open addressing over hashed spans). */
function dedupe(table: RunTable, idx: readonly number[]): number[] {
  const { text, start, end } = table;
  const size = tableSize(idx.length);
  if (scratchTable.length < size) scratchTable = new Int32Array(size).fill(-1);
  if (scratchHashes.length < idx.length) scratchHashes = new Int32Array(tableSize(idx.length));
  const slots = scratchTable;
  const mask = size - 1;
  const out: number[] = [];
  let n = 0;
  for (let r = 0; r < idx.length; r++) {
    const i = idx[r];
    const h = spanHash(text, start[i], end[i]);
    let slot = h & mask;
    let repeated = false;
    for (; slots[slot] !== -1; slot = (slot + 1) & mask) {
      const k = slots[slot]; // position in `out`
      const j = out[k];
      if (scratchHashes[k] === h && spansEqual(text, start[i], end[i], start[j], end[j])) {
        repeated = true;
        break;
      }
    }
    if (repeated) continue;
    slots[slot] = n;
    scratchHashes[n] = h;
    out.push(i);
    n++;
  }
  slots.fill(-1, 0, size);
  return out;
}
