// The persistent BM25 index: Lucene 8's BM25 and English analyzer, block postings on disk and
// exact top-k search with MaxScore.

import { writeAtomically } from "./_index_target.ts";
import { writeStreaming } from "./_stream_build.ts";
import { BLOCK, ByteSink, encodePostings } from "./_postings_codec.ts";
import { U32Buffer } from "./_growable.ts";
import { validateIndex } from "./_validate_index.ts";
import { analyze, ENGLISH_ANALYZER } from "../text/analyze.ts";
import { type BuildProgress, invert, invertInWorkers } from "./_build.ts";
import { type FieldStats, fieldStats, type IndexData } from "./_index_data.ts";
import {
  FORMAT,
  FORMAT_VERSION,
  type IndexManifest,
  readIndexFiles,
  readIndexManifest,
  writeIndexFiles,
} from "./_index_files.ts";
import type { QueryTerm, Scratch } from "./_search.ts";
import { maxScoreSearch } from "./_max_score.ts";
import { type ScoringContext, scoringContext } from "./_scoring.ts";

/** Options of {@link Bm25Index.build}. */
export interface Bm25BuildOptions {
  /** Default term-frequency saturation for searches (default 0.9, Lucene/Anserini's). */
  k1?: number;
  /** Default length normalisation for searches (default 0.4). */
  b?: number;
  /** Use exact document lengths instead of Lucene's one-byte lengths (default false). */
  exactLengths?: boolean;
  /** Called every 10,000 documents with (done, total). */
  onProgress?: BuildProgress;
}

/** Options of {@link Bm25Index.search}; each defaults to the index's own setting. */
export interface Bm25SearchOptions {
  k1?: number;
  b?: number;
  exactLengths?: boolean;
}

/** One search result. */
export interface Bm25Hit {
  docId: string;
  score: number;
}

function checkParams(k1: number, b: number): void {
  if (!(Number.isFinite(k1) && k1 >= 0) || !(Number.isFinite(b) && b >= 0 && b <= 1)) {
    throw new RangeError(
      `Cannot use BM25 parameters k1=${k1}, b=${b}: need k1 >= 0 and 0 <= b <= 1`,
    );
  }
}

/** A build's default k1 and b (0.9, 0.4) unless given, checked before any work is done. */
function buildParams(opts: Bm25BuildOptions): { k1: number; b: number } {
  const k1 = opts.k1 ?? 0.9;
  const b = opts.b ?? 0.4;
  checkParams(k1, b);
  return { k1, b };
}

/**
 * A BM25 index with Lucene 8 `BM25Similarity` semantics over text analyzed by
 * Lucene's `EnglishAnalyzer` ({@link analyze}): idf = ln(1 + (N - df + 0.5) /
 * (df + 0.5)) with N the number of documents that have terms, term score =
 * idf * tf / (tf + k1 * (1 - b + b * dl / avgdl)) computed in float32 as Lucene
 * does, dl decoded from Lucene's one-byte length (unless `exactLengths`), avgdl
 * = total terms / N. A term repeated in the query counts once per occurrence.
 * Results are ordered by score descending, ties by insertion order (Lucene's
 * doc id order), and the top k is cut in that order, as Lucene does. Runs for
 * trec_eval come from {@link bm25Run}, which orders ties by docid descending and
 * keeps the matching documents at the cutoff.
 *
 * The index persists as a directory (format version 2): variable-byte postings
 * in blocks of 128 with skip entries and block impacts (largest tf, shortest
 * document), little-endian tables and `manifest.json`; loading decodes the
 * postings into arrays. An index of an older format version is refused with the
 * command that rebuilds it. {@link Bm25Index.write} builds an index on disk from
 * a stream with bounded memory. k1 and b can be changed per search.
 *
 * @example
 * ```ts
 * import { Bm25Index } from "@lib/retrieval/mod.ts";
 * const index = Bm25Index.build([{ id: "d1", text: "Storm hits coast" }]);
 * index.search("coastal storm", 10); // [{ docId: "d1", score: ... }]
 * const dir = await Deno.makeTempDir(); // e.g. "outputs/<experiment>/bm25"
 * await index.save(`${dir}/bm25`);
 * const again = await Bm25Index.load(`${dir}/bm25`);
 * ```
 */
export class Bm25Index {
  /** Default k1 of searches. */
  readonly k1: number;
  /** Default b of searches. */
  readonly b: number;
  /** Default length mode of searches. */
  readonly exactLengths: boolean;
  /** Number of documents. */
  readonly size: number;
  readonly #data: IndexData;
  readonly #stats: FieldStats;
  #vocab: Map<string, number> | undefined;
  #contexts = new Map<string, ScoringContext>();
  #scratch: Scratch | undefined;
  #saved: IndexManifest | undefined;

  private constructor(data: IndexData, k1: number, b: number, exactLengths: boolean) {
    checkParams(k1, b);
    this.#data = data;
    this.#stats = fieldStats(data.lengths);
    this.k1 = k1;
    this.b = b;
    this.exactLengths = exactLengths;
    this.size = data.docIds.length;
  }

  /**
   * Builds an index in memory. Document numbers follow the input order.
   *
   * @param docs Documents with unique ids (ids may not contain line breaks).
   * @param opts Default k1 (0.9), b (0.4), `exactLengths` (false) and a progress callback.
   * @returns The index.
   * @throws {Error} On a duplicate or multi-line id. {RangeError} on invalid k1/b.
   * @example
   * ```ts
   * import { Bm25Index } from "@lib/retrieval/mod.ts";
   * import type { Passage } from "@lib/types/mod.ts";
   * const passages: Passage[] = [
   *   { passageId: "t1:0#0", topicId: "t1", docId: "t1:0", text: "Storm hits coast" },
   *   { passageId: "t1:0#1", topicId: "t1", docId: "t1:0", text: "Power lines down" },
   * ];
   * const index = Bm25Index.build(passages.map((p) => ({ id: p.passageId, text: p.text })));
   * ```
   */
  static build(
    docs: readonly { id: string; text: string }[],
    opts: Bm25BuildOptions = {},
  ): Bm25Index {
    const { k1, b } = buildParams(opts);
    return new Bm25Index(invert(docs, opts.onProgress), k1, b, opts.exactLengths ?? false);
  }

  /**
   * {@link Bm25Index.build} with the text analysis in worker threads beside
   * this one once the input is larger than one batch of `batchChars` characters
   * (about a million): the same index, built 1.6 times as fast on two cores
   * (565,000 passages). A smaller input is analyzed here and starts no worker.
   *
   * @param docs Documents with unique ids (ids may not contain line breaks).
   * @param opts As for `build`, plus `analysisWorkers` (default: the cores but
   *   one, at most 3; 0: none) and, for tests, `batchChars`.
   * @returns The index.
   * @throws {Error} On a duplicate or multi-line id.
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * const index = await Bm25Index.buildAsync([{ id: "d1", text: "storm damage on the coast" }]);
   * assert.equal(index.search("storms", 1)[0].docId, "d1");
   * ```
   */
  static async buildAsync(
    docs: readonly { id: string; text: string }[],
    opts: Bm25BuildOptions & { analysisWorkers?: number; batchChars?: number } = {},
  ): Promise<Bm25Index> {
    const { k1, b } = buildParams(opts);
    const data = await invertInWorkers(docs, opts);
    return new Bm25Index(data, k1, b, opts.exactLengths ?? false);
  }

  /**
   * Loads an index saved by {@link Bm25Index.save} (whole files into typed arrays).
   *
   * @param dir The index directory.
   * @returns The index, with the k1/b/length defaults it was saved with.
   * @throws {Error} When files are missing, truncated or of another format version.
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * const dir = await Deno.makeTempDir(); // e.g. "outputs/demo/bm25"
   * await Bm25Index.build([{ id: "d1", text: "storm damage on the coast" }]).save(dir);
   * const index = await Bm25Index.load(dir);
   * assert.equal(index.search("storm", 1)[0].docId, "d1");
   * ```
   */
  static async load(dir: string): Promise<Bm25Index> {
    const manifest = await readIndexManifest(dir);
    const data = await readIndexFiles(dir, manifest);
    validateIndex(dir, data, manifest);
    const index = new Bm25Index(data, manifest.k1, manifest.b, manifest.exactLengths);
    index.#saved = manifest;
    return index;
  }

  /**
   * Saves the index into `dir`, atomically: files are written to a sibling
   * temporary directory that is then swapped in, so a failed build leaves the
   * previous index as it was. `dir` must be missing, an empty folder, or an index
   * of this workbench (it has our `manifest.json` and nothing but index files);
   * anything else is refused and left untouched.
   *
   * @param dir Target directory (its parent is created if needed).
   * @returns Resolves when the index is in place.
   * @throws {Deno.errors.AlreadyExists} When `dir` is a file or a folder holding
   *   other files.
   * @example
   * ```ts
   * import { Bm25Index } from "@lib/retrieval/mod.ts";
   * const index = Bm25Index.build([{ id: "d1", text: "Storm hits coast" }]);
   * const dir = await Deno.makeTempDir(); // e.g. "outputs/<experiment>"
   * await index.save(`${dir}/bm25`);
   * ```
   */
  async save(dir: string): Promise<void> {
    await writeAtomically(dir, async (tmp) => {
      this.#saved = await writeIndexFiles(tmp, this.#data, this.#counts());
    });
  }

  /**
   * Builds an index straight into `dir` from a stream of documents, holding at
   * most one segment of postings in memory: documents are inverted in segments
   * (about 4 million postings each), each written compressed to a temporary
   * file, and the segments are merged term by term into the index. The result is
   * the same, byte for byte, as {@link Bm25Index.build} followed by
   * {@link Bm25Index.save}. `dir` is replaced atomically as by `save`.
   *
   * @param docs Documents with unique ids (ids may not contain line breaks), in any iterable.
   * @param dir Target directory (its parent is created if needed).
   * @param opts Default k1, b and length mode, a progress callback (total is -1
   *   until the input ends), `analysisWorkers`: worker threads analyzing the
   *   documents beside this one once the input is larger than one batch of
   *   `batchChars` characters, about a million (default: the other cores, at most
   *   3; 0: none; the index is the same whatever the number) and, for tests,
   *   `segmentPostings` and `batchChars`.
   * @returns The manifest of the written index.
   * @throws {Error} On a duplicate or multi-line id (nothing is written).
   * @example
   * ```ts
   * import { Bm25Index } from "@lib/retrieval/mod.ts";
   * const dir = await Deno.makeTempDir(); // e.g. "outputs/<experiment>"
   * await Bm25Index.write([{ id: "d1", text: "Storm hits coast" }], `${dir}/bm25`);
   * const index = await Bm25Index.load(`${dir}/bm25`);
   * ```
   */
  static async write(
    docs: Iterable<{ id: string; text: string }> | AsyncIterable<{ id: string; text: string }>,
    dir: string,
    opts: Bm25BuildOptions & {
      segmentPostings?: number;
      analysisWorkers?: number;
      batchChars?: number;
    } = {},
  ): Promise<IndexManifest> {
    const { k1, b } = buildParams(opts);
    let manifest: IndexManifest | undefined;
    await writeAtomically(dir, async (tmp) => {
      manifest = await writeStreaming(docs, tmp, {
        k1,
        b,
        exactLengths: opts.exactLengths ?? false,
        analyzer: ENGLISH_ANALYZER,
        format: FORMAT,
        version: FORMAT_VERSION,
        segmentPostings: opts.segmentPostings,
        analysisWorkers: opts.analysisWorkers,
        batchChars: opts.batchChars,
        onProgress: opts.onProgress,
      });
    });
    return manifest!;
  }

  /**
   * The manifest describing this index (format, parameters, counts). The byte
   * size of the compressed postings is known once the index was saved or loaded;
   * before that it is computed here by encoding them.
   */
  manifest(): IndexManifest {
    if (!this.#saved) {
      let bytes = 0;
      const sink = new ByteSink(1 << 16);
      const skips = new U32Buffer(16);
      const { offsets, postingDocs, postingTfs, lengths } = this.#data;
      for (let t = 0; t + 1 < offsets.length; t++) {
        sink.length = 0;
        skips.length = 0;
        bytes += encodePostings(
          postingDocs,
          postingTfs,
          offsets[t],
          offsets[t + 1],
          lengths,
          sink,
          skips,
        );
      }
      this.#saved = { ...this.#counts(), postingBytes: bytes };
    }
    return { ...this.#saved };
  }

  #counts(): IndexManifest {
    const d = this.#data;
    return {
      format: FORMAT,
      version: FORMAT_VERSION,
      analyzer: ENGLISH_ANALYZER,
      k1: this.k1,
      b: this.b,
      exactLengths: this.exactLengths,
      documents: d.docIds.length,
      fieldDocCount: this.#stats.docCount,
      sumTotalTermFreq: this.#stats.sumTotalTermFreq,
      terms: d.terms.length,
      postings: d.postingDocs.length,
      postingBytes: 0,
      blockSize: BLOCK,
      blocks: d.blockStarts[d.terms.length],
      tfBytes: d.postingTfs instanceof Uint16Array ? 2 : 4,
      byteOrder: "little-endian",
    };
  }

  /**
   * Returns the top `k` documents for a free-text query, best first, in Lucene's
   * order: score descending, ties by insertion order (lower document number
   * first), cut at `k` in that order. (trec_eval orders ties by docid
   * descending; use {@link bm25Run} for runs.) Query text goes through the same analyzer as documents;
   * unknown terms contribute nothing; a query without known terms returns [].
   *
   * @param query Query text.
   * @param k Number of results (a non-negative integer).
   * @param opts Per-search k1, b and length mode (defaults: the index's).
   * @returns Up to `k` hits with Lucene-identical float32 scores.
   * @throws {RangeError} When k is not a non-negative integer or k1/b are invalid.
   * @example
   * ```ts
   * import { Bm25Index } from "@lib/retrieval/mod.ts";
   * const index = Bm25Index.build([
   *   { id: "d1", text: "Hurricane damage across Florida" },
   *   { id: "d2", text: "Florida election results" },
   * ]);
   * index.search("hurricane damage in Florida", 100, { k1: 1.2, b: 0.75 });
   * // [{ docId: "d1", score: ... }, { docId: "d2", score: ... }]
   * ```
   */
  search(query: string, k: number, opts: Bm25SearchOptions = {}): Bm25Hit[] {
    if (!Number.isInteger(k) || k < 0) {
      throw new RangeError(`Cannot search with k=${k}: use a non-negative integer`);
    }
    const ctx = this.#context(opts);
    this.#vocab ??= new Map(this.#data.terms.map((t, i) => [t, i]));
    const counts = new Map<number, number>();
    for (const term of analyze(query)) {
      const t = this.#vocab.get(term);
      if (t !== undefined) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    const terms: QueryTerm[] = [...counts].map(([term, boost]) => ({ term, boost }));
    if (terms.length === 0 || k === 0) return [];
    this.#scratch ??= {
      acc: new Float64Array(this.size),
      touched: new Int32Array(this.size),
    };
    const hits = maxScoreSearch(this.#data, ctx, this.#stats.docCount, terms, k, this.#scratch);
    return hits.map((h) => ({ docId: this.#data.docIds[h.doc], score: h.score }));
  }

  #context(opts: Bm25SearchOptions): ScoringContext {
    const k1 = opts.k1 ?? this.k1;
    const b = opts.b ?? this.b;
    const exact = opts.exactLengths ?? this.exactLengths;
    checkParams(k1, b);
    const key = `${k1}/${b}/${exact}`;
    let ctx = this.#contexts.get(key);
    if (!ctx) {
      ctx = scoringContext(this.#data, this.#stats, k1, b, exact);
      if (this.#contexts.size >= 4) this.#contexts.clear();
      this.#contexts.set(key, ctx);
    }
    return ctx;
  }
}
