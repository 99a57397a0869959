/** Writing the compressed postings of an index term by term; private to `@lib/retrieval`. */
import { join } from "node:path";
import { U32Buffer } from "./_growable.ts";
import { ByteSink, encodePostings } from "./_postings_codec.ts";

/** Bytes buffered before they are written out. */
const FLUSH_BYTES = 1 << 22;

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Writes all of `bytes` to `file`. */
export function writeAllSync(file: Deno.FsFile, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
}

/**
 * Streams the postings of terms 0, 1, 2, ... into `postings.bin` of `dir`
 * (buffered), keeping the small per-term tables (`offsets.u32`, `blocks.u32`)
 * in memory until {@link PostingsWriter.close}.
 */
export class PostingsWriter {
  readonly #file: Deno.FsFile;
  readonly #dir: string;
  readonly #sink = new ByteSink(FLUSH_BYTES + (1 << 16));
  readonly #blocks = new U32Buffer(1 << 12);
  readonly #offsets = new U32Buffer(1 << 16);
  #postings = 0;
  /** Bytes of postings written (flushed or buffered). */
  bytes = 0;

  constructor(dir: string) {
    this.#dir = dir;
    this.#file = Deno.openSync(join(dir, "postings.bin"), { write: true, createNew: true });
    this.#offsets.push(0);
  }

  /** Appends the next term's postings `[start, end)` (doc numbers ascending). */
  add(
    docs: Uint32Array,
    tfs: Uint16Array | Uint32Array,
    start: number,
    end: number,
    lengths: Uint32Array,
  ): void {
    this.bytes += encodePostings(docs, tfs, start, end, lengths, this.#sink, this.#blocks);
    this.#postings += end - start;
    if (this.#postings >= 2 ** 32) {
      throw new RangeError(`Cannot index ${this.#postings} postings: over 2^32`);
    }
    this.#offsets.push(this.#postings);
    if (this.#sink.length >= FLUSH_BYTES) this.#flush();
  }

  #flush(): void {
    writeAllSync(this.#file, this.#sink.bytes());
    this.#sink.length = 0;
  }

  /** Flushes, closes `postings.bin` and writes `offsets.u32` and `blocks.u32`. */
  close(): { postings: number; blocks: number } {
    try {
      this.#flush();
    } finally {
      this.#file.close();
    }
    Deno.writeFileSync(join(this.#dir, "offsets.u32"), bytesOf(this.#offsets.toArray()));
    Deno.writeFileSync(join(this.#dir, "blocks.u32"), bytesOf(this.#blocks.toArray()));
    return { postings: this.#postings, blocks: this.#blocks.length / 4 };
  }

  /** Closes the file without finishing (after a failure). */
  abort(): void {
    try {
      this.#file.close();
    } catch {
      // already closed
    }
  }
}
