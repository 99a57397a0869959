/** Strict UTF-8 decoding that names the line of the first bad byte; private to `@lib/formats`. */
import { InputError } from "./input_error.ts";

/**
 * Offset of the first byte of `bytes[from..to)` that is 0x80 or above, or
 * `to`. Runs of ASCII are tested sixteen bytes (four words) at a time.
 */
export function asciiEnd(bytes: Uint8Array, from = 0, to = bytes.length): number {
  const n = to;
  let i = from;
  while (i < n && ((bytes.byteOffset + i) & 3) !== 0) {
    if (bytes[i] >= 0x80) return i;
    i++;
  }
  const count = (n - i) >>> 2;
  if (count > 0) {
    const words = new Int32Array(bytes.buffer, bytes.byteOffset + i, count);
    let w = 0;
    for (const last = count - 3; w < last; w += 4) {
      if (((words[w] | words[w + 1] | words[w + 2] | words[w + 3]) & 0x80808080) !== 0) break;
    }
    while (w < count && (words[w] & 0x80808080) === 0) w++;
    i += w << 2;
  }
  while (i < n && bytes[i] < 0x80) i++;
  return i;
}

/**
 * Offset of the first byte of `bytes[from..to)` that is not valid UTF-8 (a
 * character cut by `to` included), or -1.
 */
export function firstInvalidUtf8(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let i = from;
  const n = to;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i = asciiEnd(bytes, i + 1, n);
      continue;
    }
    let need: number, min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const c = i + k < n ? bytes[i + k] : 0;
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

// Replacing decoding is much faster than fatal decoding; a U+FFFD in its result is then
// checked against the bytes (the file may hold U+FFFD itself).
const lenient = new TextDecoder("utf-8", { ignoreBOM: false });

/**
 * Decodes a whole file's bytes as UTF-8, dropping a byte-order mark. Invalid
 * bytes are an error naming the line (`firstLine` is the number of the line
 * `bytes` starts on).
 */
export function decodeUtf8(bytes: Uint8Array, file: string, firstLine = 1): string {
  let text: string;
  try {
    text = lenient.decode(bytes);
  } catch (error) {
    if (firstInvalidUtf8(bytes) >= 0) throw invalidUtf8(bytes, file, firstLine);
    // Valid UTF-8 that does not fit in one string (V8 caps strings near 512 MiB).
    throw new Error(
      `Cannot read "${file}" as one text: its ${bytes.length} bytes exceed the longest text ` +
        `this runtime holds (about 512 MiB; ${(error as Error).message}); split the file, or use ` +
        "a command that streams it",
    );
  }
  if (text.includes("\uFFFD") && firstInvalidUtf8(bytes) >= 0) {
    throw invalidUtf8(bytes, file, firstLine);
  }
  return text;
}

/** The error for invalid UTF-8 in `bytes` (which start on line `firstLine`). */
export function invalidUtf8(bytes: Uint8Array, file: string, firstLine = 1): InputError {
  let at = firstInvalidUtf8(bytes);
  if (at < 0) at = bytes.length;
  let line = firstLine, lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (bytes[i] === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  const byte = at < bytes.length ? `0x${bytes[at].toString(16).padStart(2, "0")}` : "end of file";
  return new InputError([{
    file,
    line,
    message: `not valid UTF-8 (byte ${byte} at column ${
      at - lineStart + 1
    }); save the file as UTF-8`,
  }]);
}
