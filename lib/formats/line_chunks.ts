/**
 * Reading a large text file as chunks of whole lines, so that a reader parses
 * it line by line without holding the file or one string of it.
 *
 * @module
 */
import { bytesToLineEnd, cannotRead, MAX_LINE_BYTES } from "./_lines.ts";
import { firstInvalidUtf8 } from "./_utf8.ts";
import { InputError } from "./input_error.ts";

/** Size of the line buffer from which a longer line is first looked for ahead. */
const LOOK_AHEAD = 16 << 20;

/** A piece of a file holding whole lines (the last line of the file may lack its LF). */
export interface LineChunk {
  /**
   * The chunk's bytes, valid UTF-8. A view into the reader's buffer: valid only
   * until the next chunk is read (copy what must outlive it).
   */
  bytes: Uint8Array;
  /** Byte offset of `bytes[0]` in the file. */
  offset: number;
}

/** Options of {@linkcode LineChunks}. */
export interface LineChunkOptions {
  /** Bytes read at a time (default 4 MiB). */
  chunkBytes?: number;
  /** Longest line accepted, in bytes (default 64 MiB); a longer one is an error naming it. */
  maxLineBytes?: number;
  /**
   * Check each chunk as UTF-8 (default true). A reader that checks the bytes
   * itself as it scans them may turn this off, and then reports invalid bytes
   * with {@linkcode LineChunks.checkUtf8}.
   */
  checkUtf8?: boolean;
}

/**
 * A file read as chunks of whole lines, each checked to be UTF-8. The next
 * chunk is read (off the calling thread) while the caller works on the current
 * one, so memory stays at about two chunks whatever the file's size. A UTF-8
 * byte-order mark at the start is skipped, also when the first line is longer
 * than a chunk. Invalid UTF-8 is an {@linkcode InputError} naming the line,
 * the column and the byte (the file is read again up to it to count the lines,
 * so the common path never counts them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineChunks } from "@lib/formats/mod.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.txt`, "one\ntwo\n");
 * let bytes = 0;
 * for await (const chunk of new LineChunks(`${dir}/a.txt`)) bytes += chunk.bytes.length;
 * assert.equal(bytes, 8);
 * ```
 */
export class LineChunks implements AsyncIterable<LineChunk> {
  /** The file. */
  readonly path: string;
  #chunkBytes: number;
  #maxLine: number;
  #check: boolean;

  /**
   * @param path The file.
   * @param opts See {@linkcode LineChunkOptions}.
   */
  constructor(path: string, opts: LineChunkOptions = {}) {
    this.path = path;
    this.#chunkBytes = Math.max(1, opts.chunkBytes ?? 4 << 20);
    this.#maxLine = opts.maxLineBytes ?? MAX_LINE_BYTES;
    this.#check = opts.checkUtf8 ?? true;
  }

  /**
   * Yields the file's chunks in order.
   *
   * @throws {InputError} On invalid UTF-8 or a line longer than the limit.
   * @throws {Deno.errors.NotFound} When the file does not exist.
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<LineChunk> {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(this.path, { read: true });
    } catch (error) {
      throw cannotRead(this.path, error);
    }
    using _file = file;
    // Two buffers: the next read goes into one while the caller works on the
    // chunk yielded from the other (the read runs off this thread).
    let buffer = new Uint8Array(this.#chunkBytes);
    let spare = new Uint8Array(this.#chunkBytes);
    let filled = 0; // bytes in `buffer`
    let offset = 0; // file offset of buffer[0]
    let first = true;
    let eof = false;
    let checkedAt = -1; // offset of the line whose end was looked for ahead
    const read = (into: Uint8Array) => {
      const p = file.read(into);
      p.catch(() => {}); // awaited below; a reader left early closes the file under it
      return p;
    };
    let pending = read(buffer);
    while (!eof) {
      let n: number | null;
      try {
        n = await pending;
      } catch (error) {
        throw cannotRead(this.path, error);
      }
      if (n === null) eof = true;
      else filled += n;
      if (first && (filled >= 3 || eof)) { // a byte-order mark is dropped from the buffer
        first = false;
        if (filled >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) {
          buffer.copyWithin(0, 3, filled);
          filled -= 3;
          offset = 3;
        }
      }
      // Whole lines: up to the last LF (everything at the end of the file).
      const end = eof ? filled : buffer.lastIndexOf(10, filled - 1) + 1;
      if (end === 0) { // no whole line yet: read on into the same buffer, grown when full
        if (eof) break; // an empty file
        if (filled === buffer.length) {
          if (buffer.length >= this.#maxLine) throw await this.#longLine(offset, buffer.length);
          // Before the buffer grows past 16 MiB, look ahead for the line's end (keeping
          // none of it): a line over the limit is refused without reading it into memory.
          if (buffer.length >= LOOK_AHEAD && checkedAt !== offset) {
            checkedAt = offset;
            const rest = await bytesToLineEnd(
              this.path,
              offset + filled,
              this.#maxLine - filled + 1,
            );
            if (filled + rest > this.#maxLine) throw await this.#longLine(offset, this.#maxLine);
          }
          const bigger = new Uint8Array(Math.min(2 * buffer.length, this.#maxLine));
          bigger.set(buffer);
          buffer = bigger;
          spare = new Uint8Array(bigger.length);
        }
        pending = read(buffer.subarray(filled));
        continue;
      }
      // The unfinished last line starts the other buffer, and the next read goes on
      // from it while this chunk is with the caller.
      const rest = filled - end;
      if (!eof) {
        spare.set(buffer.subarray(end, filled));
        pending = read(spare.subarray(rest));
      }
      const bytes = buffer.subarray(0, end);
      if (this.#check && firstInvalidUtf8(bytes) >= 0) await this.checkUtf8(bytes, offset);
      first = false; // lines were read: a mark from now on is text
      yield { bytes, offset };
      [buffer, spare] = [spare, buffer];
      filled = rest;
      offset += end;
    }
  }

  /**
   * The 1-based number of the line holding byte `offset` of the file, found by
   * reading the file up to it.
   *
   * @param offset A byte offset in the file.
   * @returns The line number.
   */
  async lineAt(offset: number): Promise<number> {
    using file = await Deno.open(this.path, { read: true });
    const buffer = new Uint8Array(1 << 20);
    let line = 1;
    let pos = 0;
    while (pos < offset) {
      const n = await file.read(buffer.subarray(0, Math.min(buffer.length, offset - pos)));
      if (n === null) break;
      for (let i = buffer.indexOf(10); i !== -1 && i < n; i = buffer.indexOf(10, i + 1)) line++;
      pos += n;
    }
    return line;
  }

  /**
   * Checks bytes of this file as UTF-8 (a chunk, or whole lines of one).
   *
   * @param bytes The bytes.
   * @param offset Their offset in the file.
   * @throws {InputError} On invalid UTF-8, naming the line (counted by reading
   *   the file up to it), the column, the byte and its file offset.
   */
  async checkUtf8(bytes: Uint8Array, offset: number): Promise<void> {
    const at = firstInvalidUtf8(bytes);
    if (at < 0) return;
    const lineStart = bytes.lastIndexOf(10, at - 1) + 1;
    const line = await this.lineAt(offset + at);
    const byte = `0x${bytes[at].toString(16).padStart(2, "0")}`;
    throw new InputError([{
      file: this.path,
      line,
      message: `not valid UTF-8 (byte ${byte} at column ${at - lineStart + 1}, file offset ${
        offset + at
      }); save the file as UTF-8`,
    }]);
  }

  async #longLine(offset: number, size: number): Promise<InputError> {
    return new InputError([{
      file: this.path,
      line: await this.lineAt(offset),
      message: `line longer than ${size} bytes (the limit of a line); is this a text file of ` +
        "one record per line?",
    }]);
  }
}
