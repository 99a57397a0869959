/**
 * Building an index on disk from a stream of documents with bounded memory;
 * private to `@lib/retrieval`. Documents are inverted into segments of at most
 * `segmentPostings` postings; each segment is written, compressed, to a
 * temporary file, and at the end the segments are merged term by term into the
 * index files, reading each segment sequentially. Term numbers are shared by all
 * segments (first-occurrence order) and document numbers follow the input, so
 * the result is byte for byte the index a one-shot build would save.
 */
import { join } from "node:path";
import { U32Buffer } from "./_growable.ts";
import { Inverter, type Segment } from "./_inverter.ts";
import { type BuildProgress, checkId } from "./_build.ts";
import { BLOCK, ByteSink, decodePostings, encodePostings } from "./_postings_codec.ts";
import { PostingsWriter, writeAllSync } from "./_postings_file.ts";
import { fieldStats } from "./_index_data.ts";
import { type IndexManifest, writeIndexTables } from "./_index_files.ts";
import { analyzeDocuments } from "./_analysis.ts";

/** Default size of a segment, in postings (about 70,000 passages of 100 words). */
export const SEGMENT_POSTINGS = 1 << 22;

/** Writes one segment: per term with postings, varint term gap, df, byte length, postings. */
function writeSegment(path: string, seg: Segment, lengths: Uint32Array): void {
  const file = Deno.openSync(path, { write: true, createNew: true });
  try {
    const sink = new ByteSink(1 << 20);
    const body = new ByteSink(1 << 16);
    const skips = new U32Buffer(16);
    const { offsets, docs, tfs } = seg;
    let prevTerm = -1;
    for (let t = 0; t + 1 < offsets.length; t++) {
      const start = offsets[t];
      const end = offsets[t + 1];
      if (end === start) continue;
      body.length = 0;
      skips.length = 0;
      encodePostings(docs, tfs, start, end, lengths, body, skips);
      sink.varint(t - prevTerm - 1);
      sink.varint(end - start);
      sink.varint(body.length);
      sink.reserve(body.length);
      sink.data.set(body.bytes(), sink.length);
      sink.length += body.length;
      prevTerm = t;
      if (sink.length >= 1 << 20) {
        writeAllSync(file, sink.bytes());
        sink.length = 0;
      }
    }
    writeAllSync(file, sink.bytes());
  } finally {
    file.close();
  }
}

/** Sequential reader of a segment file. */
class SegmentReader {
  readonly #file: Deno.FsFile;
  #buf = new Uint8Array(1 << 20);
  #pos = 0;
  #end = 0;
  #eof = false;
  /** Term of the next record (Infinity after the last). */
  term = -1;
  df = 0;
  #bytes = 0;

  constructor(readonly path: string) {
    this.#file = Deno.openSync(path, { read: true });
    this.#next();
  }

  /** Makes `n` bytes available from #pos (fewer only at the end of the file). */
  #fill(n: number): void {
    if (this.#end - this.#pos >= n || this.#eof) return;
    if (n > this.#buf.length) {
      const bigger = new Uint8Array(Math.max(n, this.#buf.length * 2));
      bigger.set(this.#buf.subarray(this.#pos, this.#end));
      this.#buf = bigger;
    } else {
      this.#buf.copyWithin(0, this.#pos, this.#end);
    }
    this.#end -= this.#pos;
    this.#pos = 0;
    while (this.#end < n) {
      const got = this.#file.readSync(this.#buf.subarray(this.#end));
      if (got === null || got === 0) {
        this.#eof = true;
        return;
      }
      this.#end += got;
    }
  }

  #varint(): number {
    const buf = this.#buf;
    let v = 0;
    let scale = 1;
    for (;;) {
      if (this.#pos >= this.#end) throw new Error(`Segment "${this.path}" ends inside a record`);
      const b = buf[this.#pos++];
      v += (b & 127) * scale;
      if (b < 128) return v;
      scale *= 128;
    }
  }

  #next(): void {
    this.#fill(32);
    if (this.#pos >= this.#end) {
      this.term = Infinity;
      this.#file.close();
      return;
    }
    this.term += this.#varint() + 1;
    this.df = this.#varint();
    this.#bytes = this.#varint();
  }

  /** Decodes the current record's postings into `docs`/`tfs` from `out`, then advances. */
  read(docs: Uint32Array, tfs: Uint32Array, out: number): void {
    this.#fill(this.#bytes);
    const stop = this.#pos + this.#bytes;
    const pos = decodePostings(this.#buf, this.#pos, stop, this.df, docs, tfs, out);
    if (pos !== stop) throw new Error(`Segment "${this.path}" has a broken record`);
    this.#pos = stop;
    this.#next();
  }

  close(): void {
    if (this.term !== Infinity) {
      this.term = Infinity;
      this.#file.close();
    }
  }
}

/** Options of {@link writeStreaming}. */
export interface StreamBuildOptions {
  k1: number;
  b: number;
  exactLengths: boolean;
  analyzer: string;
  format: string;
  version: number;
  segmentPostings?: number;
  /**
   * Worker threads analyzing batches beside the calling thread, started once the
   * input is larger than one batch (default: the cores but one, at most 3; 0:
   * none). The index is the same whatever the number.
   */
  analysisWorkers?: number;
  /** Characters of text per analysis batch (default about a million). */
  batchChars?: number;
  onProgress?: BuildProgress;
}

/**
 * Builds the index files of `docs` into the empty folder `dir`.
 *
 * @returns The manifest written.
 */
export async function writeStreaming(
  docs: Iterable<{ id: string; text: string }> | AsyncIterable<{ id: string; text: string }>,
  dir: string,
  opts: StreamBuildOptions,
): Promise<IndexManifest> {
  const limit = opts.segmentPostings ?? SEGMENT_POSTINGS;
  // Each segment is written before the next is taken, so its arrays can be reused.
  const inverter = new Inverter({ segmentPostings: limit, reuse: true });
  const seen = new Map<string, number>();
  const docIds: string[] = [];
  const segments: string[] = [];
  const flush = () => {
    const path = join(dir, `.segment-${segments.length}`);
    segments.push(path);
    writeSegment(path, inverter.take(), inverter.lengths.data);
  };
  try {
    const terms = await analyzeDocuments(docs, {
      workers: opts.analysisWorkers,
      batchChars: opts.batchChars,
      onDocument: (id) => {
        checkId(id, docIds.length, seen);
        docIds.push(id);
      },
      onBatch: (batch, vocabSize) =>
        inverter.addBatch(batch, vocabSize, () => {
          if (inverter.pending >= limit) flush();
          if (opts.onProgress && inverter.documents % 10000 === 0) {
            opts.onProgress(inverter.documents, -1);
          }
        }),
    });
    seen.clear();
    if (inverter.pending > 0 || segments.length === 0) flush();
    inverter.releaseBuffers(); // the merge below needs only the vocabulary and lengths
    opts.onProgress?.(docIds.length, docIds.length);
    const lengths = inverter.lengths.toArray();
    const readers = segments.map((p) => new SegmentReader(p));
    const writer = new PostingsWriter(dir);
    const n = docIds.length;
    const mDocs = new Uint32Array(Math.max(n, 1));
    const mTfs = new Uint32Array(Math.max(n, 1));
    try {
      for (let t = 0; t < terms.length; t++) {
        let count = 0;
        for (const r of readers) {
          if (r.term === t) {
            const df = r.df;
            r.read(mDocs, mTfs, count);
            count += df;
          }
        }
        writer.add(mDocs, mTfs, 0, count, lengths);
      }
    } catch (error) {
      writer.abort();
      throw error;
    } finally {
      for (const r of readers) r.close();
    }
    const { postings, blocks } = writer.close();
    const stats = fieldStats(lengths);
    const manifest: IndexManifest = {
      format: opts.format,
      version: opts.version,
      analyzer: opts.analyzer,
      k1: opts.k1,
      b: opts.b,
      exactLengths: opts.exactLengths,
      documents: n,
      fieldDocCount: stats.docCount,
      sumTotalTermFreq: stats.sumTotalTermFreq,
      terms: terms.length,
      postings,
      postingBytes: writer.bytes,
      blockSize: BLOCK,
      blocks,
      tfBytes: inverter.maxTf < 65536 ? 2 : 4,
      byteOrder: "little-endian",
    };
    await writeIndexTables(dir, docIds, terms, lengths, manifest);
    return manifest;
  } finally {
    for (const path of segments) await Deno.remove(path).catch(() => {});
  }
}
