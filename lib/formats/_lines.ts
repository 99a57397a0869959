/** Line-by-line reading of text and of large files; private to `@lib/formats`. */
import { decodeUtf8, invalidUtf8 } from "./_utf8.ts";
import { InputError } from "./input_error.ts";

/** Splits text into lines (LF or CRLF), without the trailing empty line. */
export function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.endsWith("\r")) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/**
 * Longest line the line readers accept, in bytes: 64 MiB, far above any record
 * of the formats read line by line (a JSON document is read whole, up to
 * {@linkcode MAX_TEXT_BYTES}).
 */
export const MAX_LINE_BYTES = 64 << 20;

/** Largest file read whole as one text (a JSON document), in bytes: 256 MiB. */
export const MAX_TEXT_BYTES = 256 << 20;

/** Options of {@linkcode readLines}. */
export interface ReadLinesOptions {
  /** Longest line accepted, in bytes (default {@linkcode MAX_LINE_BYTES}). */
  maxLineBytes?: number;
}

/**
 * Streams a file's lines (LF or CRLF) without loading it whole; reads 1 MiB chunks.
 * A UTF-8 byte-order mark at the start is dropped. A line longer than the limit
 * is refused as soon as it is seen to be: once an unfinished line passes 4 MiB
 * (or the limit, when smaller), the file is scanned ahead for the line's end
 * without keeping the bytes, so a huge line costs neither the time to read it
 * into memory nor the memory.
 */
export async function* readLines(
  path: string,
  opts: ReadLinesOptions = {},
): AsyncGenerator<string> {
  const max = opts.maxLineBytes ?? MAX_LINE_BYTES;
  const lookAhead = Math.min(4 << 20, max);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    throw cannotRead(path, error);
  }
  using _file = file;
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const buffer = new Uint8Array(1 << 20);
  let pieces: string[] = []; // the unfinished line, decoded
  let lineBytes = 0; // bytes of the unfinished line
  let checked = false; // the unfinished line's end was looked for ahead
  let first = true;
  let lineNo = 1; // the unfinished line's number
  let pos = 0; // file offset after the bytes read
  const decode = (bytes: Uint8Array): string => {
    try {
      const text = decoder.decode(bytes, { stream: true });
      if (first && text !== "") {
        first = false; // only the file's first character may be a byte-order mark
        if (text.charCodeAt(0) === 0xfeff) return text.slice(1);
      }
      return text;
    } catch {
      throw invalidUtf8(bytes, path, lineNo);
    }
  };
  while (true) {
    let n: number | null;
    try {
      n = await file.read(buffer);
    } catch (error) {
      throw cannotRead(path, error);
    }
    if (n === null) break;
    pos += n;
    const bytes = buffer.subarray(0, n);
    let start = 0;
    for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
      if (lineBytes + end - start > max) throw longLine(path, lineNo, max);
      const text = decode(bytes.subarray(start, end));
      let line = pieces.length ? pieces.join("") + text : text;
      if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      yield line;
      first = false; // a mark on a later line is text
      lineNo++;
      pieces = [];
      lineBytes = 0;
      checked = false;
      start = end + 1;
    }
    if (start < n) {
      pieces.push(decode(bytes.subarray(start)));
      lineBytes += n - start;
      if (lineBytes > max) throw longLine(path, lineNo, max);
      if (!checked && lineBytes >= lookAhead) {
        checked = true;
        if (lineBytes + await bytesToLineEnd(path, pos, max - lineBytes + 1) > max) {
          throw longLine(path, lineNo, max);
        }
      }
    }
  }
  let rest: string;
  try {
    rest = pieces.join("") + decoder.decode();
  } catch {
    throw invalidUtf8(new Uint8Array(), path, lineNo);
  }
  if (rest.endsWith("\r")) rest = rest.slice(0, -1);
  if (rest !== "") yield rest;
}

/**
 * Bytes from `offset` of the file up to its next LF (or its end), counting at
 * most `atMost`; reads 4 MiB at a time and keeps none of it.
 */
export async function bytesToLineEnd(
  path: string,
  offset: number,
  atMost: number,
): Promise<number> {
  using file = await Deno.open(path, { read: true });
  const size = (await file.stat()).size;
  if (size - offset < atMost && size > 0) {
    // The rest of the file is shorter than the limit: the line fits whatever it holds.
    return size - offset;
  }
  await file.seek(offset, Deno.SeekMode.Start);
  const buffer = new Uint8Array(4 << 20);
  let count = 0;
  while (count < atMost) {
    const n = await file.read(buffer);
    if (n === null) break;
    const lf = buffer.subarray(0, n).indexOf(10);
    if (lf !== -1) return count + lf;
    count += n;
  }
  return count;
}

/** The error of a line over the limit, naming the file, the line and the limit. */
export function longLine(path: string, line: number, max: number): InputError {
  return new InputError([{
    file: path,
    line,
    message: `line longer than ${max} bytes (the limit of a line); is this a text file of ` +
      "one record per line?",
  }]);
}

/**
 * Reads a whole text file, naming the file in the error when it cannot be read.
 * A file over `maxBytes` (default {@linkcode MAX_TEXT_BYTES}) is refused before
 * it is read, naming its size.
 */
export async function readText(
  path: string,
  opts: { maxBytes?: number } = {},
): Promise<string> {
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(path);
    if (info.isFile) refuseOversizedText(path, info.size, opts.maxBytes);
    bytes = await Deno.readFile(path);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw cannotRead(path, error);
  }
  refuseOversizedText(path, bytes.length, opts.maxBytes); // a pipe, or a file that grew
  const text = decodeUtf8(bytes, path);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Refuses a file of `size` bytes to be read whole when it is over `max`
 * (default {@linkcode MAX_TEXT_BYTES}), naming the file and the size.
 */
export function refuseOversizedText(path: string, size: number, max = MAX_TEXT_BYTES): void {
  if (size <= max) return;
  throw new InputError([{
    file: path,
    line: 0,
    message: `the file is ${size} bytes, more than the ${max} bytes a file read whole (a JSON ` +
      "document, a qrels file) may have; is this the right file? Split it if it is",
  }]);
}

/** Wraps a file-system error with the path and what to check. */
export function cannotRead(path: string, error: unknown): Error {
  if (error instanceof Deno.errors.NotFound) {
    return new Deno.errors.NotFound(`Cannot read "${path}": no such file; check the path`);
  }
  if (error instanceof Deno.errors.IsADirectory) {
    return new Deno.errors.IsADirectory(
      `Cannot read "${path}": it is a folder, not a file; give the path of a file in it`,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`Cannot read "${path}": ${message}`, { cause: error });
}
