// A topic of a run table ranked the evaluator's way, without decoding document ids.

import type { RunTable, RunTopicColumns } from "./run_table.ts";
import type { QrelsTopic } from "./_qrels_topic.ts";
import type { RankOrder } from "./_rank_topic.ts";
import { compareSpans, decodeSpan, spansEqual, StampedSlots } from "./_span_hash.ts";

/** A topic of a run table ranked the evaluator's way, without decoding document ids. */
export interface RankedColumns {
  /** Row indices in rank order, each document once. */
  rows: Int32Array;
  duplicates: number;
  /** Grade per rank (-Infinity = unjudged), as `TopicView.grades()`. */
  grades: Float64Array;
  /** Document ids in rank order, decoded on demand. */
  docs: () => string[];
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Ranks the topics of one run table: trec_eval's order (score descending, then
 * document id descending in byte order) or rank order, keeping the best
 * occurrence of each document. Rankings and grades are views into arrays
 * shared by the whole table, so ranking a topic allocates almost nothing.
 */
export class ColumnRanker {
  #table: RunTable;
  #byRank: boolean;
  /** The high 32 bits of every score (little-endian platforms). */
  #scoreHigh?: Uint32Array;
  #rowPool: Int32Array;
  #gradePool: Float64Array;
  #used = 0;

  constructor(table: RunTable, order: RankOrder) {
    this.#table = table;
    this.#byRank = order === "rank";
    this.#rowPool = new Int32Array(table.size);
    this.#gradePool = new Float64Array(table.size);
    this.retarget(table);
  }

  /**
   * Ranks the topics of `table` from now on, reusing this ranker's arrays (a
   * run read in chunks then touches the same memory for every chunk). The
   * rankings of the earlier table are no longer valid.
   */
  retarget(table: RunTable): void {
    this.#table = table;
    const { score } = table;
    if (LITTLE_ENDIAN) {
      this.#scoreHigh = new Uint32Array(score.buffer, score.byteOffset, 2 * score.length);
    }
    if (this.#rowPool.length < table.size) { // with room to spare for the next table
      this.#rowPool = new Int32Array(Math.ceil(table.size * 1.25));
      this.#gradePool = new Float64Array(this.#rowPool.length);
    }
    this.#used = 0;
  }

  /** Ranks one topic of the table, looking grades up in `qrels`. */
  rank(topic: RunTopicColumns, qrels: QrelsTopic | undefined): RankedColumns {
    const table = this.#table;
    const ranges = topic.ranges;
    let n = 0;
    for (let r = 0; r < ranges.length; r += 2) n += ranges[r + 1] - ranges[r];
    if (order.length < n) {
      order = new Int32Array(2 * n);
      scratch = new Int32Array(2 * n);
      keys = new BigUint64Array(2 * n);
      keyWords = new Uint32Array(keys.buffer);
    }
    const idx = order;
    setColumns(table, this.#byRank);
    if (!this.#byRank && ranges.length === 2 && inScoreOrder(ranges[0], ranges[1])) {
      // Already in trec_eval's order (runs are usually written so): nothing to sort.
      for (let k = 0; k < n; k++) idx[k] = ranges[0] + k;
    } else if (!this.#byRank && this.#scoreHigh) sortByScore(this.#scoreHigh, ranges, n);
    else {
      let k = 0;
      for (let r = 0; r < ranges.length; r += 2) {
        for (let i = ranges[r]; i < ranges[r + 1]; i++) idx[k++] = i;
      }
      sortRows(idx, scratch, 0, n);
    }
    setColumns(EMPTY_TABLE, false); // do not keep the table alive

    if (this.#used + n > this.#rowPool.length) { // a topic ranked twice: fresh arrays
      this.#rowPool = new Int32Array(Math.max(n, 1024));
      this.#gradePool = new Float64Array(Math.max(n, 1024));
      this.#used = 0;
    }
    const base = this.#used;
    const rows = this.#rowPool;
    const grades = this.#gradePool;
    // Keep the first occurrence of each document (open addressing over the ids'
    // hashes; a slot is live when its stamp is this topic's epoch, and holds the
    // document's position in `rows`).
    const mask = seen.reset(n);
    const { values: slots, stamps, epoch } = seen;
    const { bytes, start, end, hash } = table;
    // With fewer judged documents than ranked ones (the usual case), each judged id
    // is looked up in this ranking's table once it is built, rather than each ranked
    // id in the judgments' (a judgments index listing repeats keeps the per-row path).
    const index = qrels?.index;
    const probeJudged = index !== undefined && index.size < n && index.duplicates.length === 0;
    let kept = base;
    for (let r = 0; r < n; r++) {
      const i = idx[r];
      const h = hash[i];
      let slot = h & mask;
      let repeated = false;
      for (; stamps[slot] === epoch; slot = (slot + 1) & mask) {
        const j = rows[slots[slot]];
        if (hash[j] === h && spansEqual(bytes, start[i], end[i], bytes, start[j], end[j])) {
          repeated = true;
          break;
        }
      }
      if (repeated) continue;
      stamps[slot] = epoch;
      slots[slot] = kept;
      rows[kept] = i;
      if (probeJudged) grades[kept++] = -Infinity;
      else {
        const g = qrels?.gradeOfSpan(bytes, start[i], end[i], h);
        grades[kept++] = g === undefined || g < 0 ? -Infinity : g;
      }
    }
    if (probeJudged) gradeJudged(qrels!, rows, grades, table, mask);
    this.#used = kept;
    const keptRows = rows.subarray(base, kept);
    return {
      rows: keptRows,
      duplicates: n - (kept - base),
      grades: grades.subarray(base, kept),
      docs: () => Array.from(keptRows, (i) => decodeSpan(bytes, start[i], end[i])),
    };
  }
}

/**
 * Sets the grade of every ranked document that `qrels` judges (grade >= 0),
 * finding each judged id in the ranking's table ({@linkcode seen}, holding
 * positions in `rows`).
 */
function gradeJudged(
  qrels: QrelsTopic,
  rows: Int32Array,
  grades: Float64Array,
  table: RunTable,
  mask: number,
): void {
  const { bytes, start, end, hash } = table;
  const { values: slots, stamps, epoch } = seen;
  const index = qrels.index;
  const judged = index.columns;
  const list = qrels.gradeList;
  for (let q = 0; q < index.size; q++) {
    const g = list[q];
    if (g < 0) continue; // negative: in the pool, unjudged
    const k = judged.from + q;
    const h = judged.hashes[k];
    for (let slot = h & mask; stamps[slot] === epoch; slot = (slot + 1) & mask) {
      const at = slots[slot];
      const j = rows[at];
      if (
        hash[j] === h &&
        spansEqual(bytes, start[j], end[j], judged.bytes, judged.start[k], judged.end[k])
      ) {
        grades[at] = g;
        break;
      }
    }
  }
}

// Scratch space shared by all rankers.
let order = new Int32Array(256);
let scratch = new Int32Array(256);
let keys = new BigUint64Array(256);
let keyWords = new Uint32Array(keys.buffer);
/** The table of the ranking being built: the first occurrence of each document. */
const seen = new StampedSlots();

/**
 * Sorts the rows of `ranges` into `order` by score descending, then document
 * id descending: a native sort of 64-bit keys (the score's high 32 bits made
 * order-preserving, then the row), then an exact sort of each run of equal
 * high bits (tied or nearly tied scores).
 */
function sortByScore(high: Uint32Array, ranges: readonly number[], n: number): void {
  const words = keyWords;
  let k = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    for (let i = ranges[r]; i < ranges[r + 1]; i++) {
      const hi = high[2 * i + 1];
      // Ascending keys = descending scores; -0 and the tiniest negatives share +0's key.
      words[2 * k] = i;
      words[2 * k + 1] = hi === 0x80000000 ? 0x7fffffff : hi & 0x80000000 ? hi : hi ^ 0x7fffffff;
      k++;
    }
  }
  keys.subarray(0, n).sort();
  const idx = order;
  for (let k = 0; k < n; k++) idx[k] = words[2 * k];
  for (let a = 0; a < n;) {
    let b = a + 1;
    while (b < n && words[2 * b + 1] === words[2 * a + 1]) b++;
    if (b - a > 1) sortRows(idx, scratch, a, b);
    a = b;
  }
}

// The columns being sorted, read by `before` (module state keeps the sort loops monomorphic).
type Columns = Pick<RunTable, "bytes" | "start" | "end" | "score" | "rank">;
const EMPTY_TABLE: Columns = {
  bytes: new Uint8Array(0),
  start: new Int32Array(0),
  end: new Int32Array(0),
  score: new Float64Array(0),
  rank: new Float64Array(0),
};
let bytes: Uint8Array = EMPTY_TABLE.bytes;
let start: Int32Array = EMPTY_TABLE.start;
let end: Int32Array = EMPTY_TABLE.end;
let score: Float64Array = EMPTY_TABLE.score;
let rank: Float64Array = EMPTY_TABLE.rank;
let byRank = false;

function setColumns(table: Columns, rankFirst: boolean): void {
  ({ bytes, start, end, score, rank } = table);
  byRank = rankFirst;
}

/**
 * Whether row i ranks above row j: trec_eval's score descending then document
 * id descending (byte order), after rank ascending for the `rank` order.
 */
function before(i: number, j: number): boolean {
  if (byRank && rank[i] !== rank[j]) return rank[i] < rank[j];
  const a = score[i];
  const b = score[j];
  if (a > b) return true;
  if (a < b) return false;
  return compareSpans(bytes, start[i], end[i], bytes, start[j], end[j]) > 0;
}

/**
 * Whether rows `[from, to)` are already in trec_eval's order: each row's score
 * above the next one's, or equal with a document id after it in byte order.
 */
function inScoreOrder(from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) {
    const a = score[i - 1];
    const b = score[i];
    if (a > b) continue;
    if (a < b || compareSpans(bytes, start[i - 1], end[i - 1], bytes, start[i], end[i]) <= 0) {
      return false;
    }
  }
  return true;
}

/** Sorts `idx[lo, hi)` by {@linkcode before} (merge sort, insertion sort below 16 rows). */
function sortRows(idx: Int32Array, tmp: Int32Array, lo: number, hi: number): void {
  if (hi - lo <= 16) {
    for (let k = lo + 1; k < hi; k++) {
      const v = idx[k];
      let m = k - 1;
      while (m >= lo && before(v, idx[m])) {
        idx[m + 1] = idx[m];
        m--;
      }
      idx[m + 1] = v;
    }
    return;
  }
  const mid = (lo + hi) >>> 1;
  sortRows(idx, tmp, lo, mid);
  sortRows(idx, tmp, mid, hi);
  if (!before(idx[mid], idx[mid - 1])) return; // already in order
  for (let k = lo; k < mid; k++) tmp[k] = idx[k];
  let a = lo;
  let b = mid;
  let k = lo;
  while (a < mid && b < hi) idx[k++] = before(idx[b], tmp[a]) ? idx[b++] : tmp[a++];
  while (a < mid) idx[k++] = tmp[a++];
}
