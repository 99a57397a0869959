/** Line-by-line reading of text and of large files; private to `@lib/formats`. */
import { decodeUtf8, invalidUtf8 } from "./_utf8.ts";

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
 * Streams a file's lines (LF or CRLF) without loading it whole; reads 1 MiB chunks.
 * A UTF-8 byte-order mark at the start is dropped.
 */
export async function* readLines(path: string): AsyncGenerator<string> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    throw cannotRead(path, error);
  }
  using _file = file;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const buffer = new Uint8Array(1 << 20);
  let rest = "";
  let first = true;
  let lineNo = 1; // line on which `rest` starts
  while (true) {
    let n: number | null;
    try {
      n = await file.read(buffer);
    } catch (error) {
      throw cannotRead(path, error);
    }
    if (n === null) break;
    let text: string;
    try {
      text = decoder.decode(buffer.subarray(0, n), { stream: true });
    } catch {
      throw invalidUtf8(buffer.subarray(0, n), path, lineNo + countNewlines(rest));
    }
    let chunk = rest + text;
    if (first) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      first = false;
    }
    let start = 0;
    let end = chunk.indexOf("\n", start);
    while (end !== -1) {
      yield chunk.charCodeAt(end - 1) === 13
        ? chunk.slice(start, end - 1)
        : chunk.slice(start, end);
      lineNo++;
      start = end + 1;
      end = chunk.indexOf("\n", start);
    }
    rest = chunk.slice(start);
  }
  try {
    rest += decoder.decode();
  } catch {
    throw invalidUtf8(new Uint8Array(), path, lineNo);
  }
  if (rest.endsWith("\r")) rest = rest.slice(0, -1);
  if (rest !== "") yield rest;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

/** Reads a whole text file, naming the file in the error when it cannot be read. */
export async function readText(path: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    throw cannotRead(path, error);
  }
  const text = decodeUtf8(bytes, path);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
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
