/**
 * The word scanner behind {@link tokenize} and {@link analyze}: Unicode word
 * segmentation (UAX #29) restricted to the segments the standard tokenizer keeps.
 */
import {
  classifyCodePoint,
  DIGIT,
  EXTEND,
  EXTEND_NUM_LET,
  KATAKANA,
  LETTER,
  MID_LETTER,
  MID_NUM,
  MID_NUM_LET,
  SINGLE_CHAR,
} from "./_char_class.ts";

/** Longest token the scanner emits; longer words are cut into pieces of this length. */
export const MAX_TOKEN_LENGTH = 255;

function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** Skips combining marks and format characters from `i`; returns the next index. */
function skipExtend(text: string, i: number): number {
  while (i < text.length) {
    const cp = codePointAt(text, i);
    if (classifyCodePoint(cp) !== EXTEND) break;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

/**
 * Calls `emit(start, end)` for every word token of `text` (UTF-16 offsets).
 * Words join letters and digits, keep `.`/`'`/`’` between letters (`U.S`,
 * `don't`), `.`/`,`/`;` between digits (`3.5`, `1,000`) and `_` anywhere.
 */
export function scanWords(text: string, emit: (start: number, end: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let cp = text.charCodeAt(i);
    let cls = cp < 128 ? classifyCodePoint(cp) : classifyCodePoint(cp = codePointAt(text, i));
    let w = cp > 0xffff ? 2 : 1;
    if (cls === SINGLE_CHAR) {
      const end = skipExtend(text, i + w);
      emit(i, end);
      i = end;
      continue;
    }
    if (cls !== LETTER && cls !== DIGIT && cls !== KATAKANA && cls !== EXTEND_NUM_LET) {
      i += w;
      continue;
    }
    const start = i;
    let last = cls;
    let wordy = cls !== EXTEND_NUM_LET;
    i += w;
    while (i < n) {
      cp = text.charCodeAt(i);
      cls = cp < 128 ? classifyCodePoint(cp) : classifyCodePoint(cp = codePointAt(text, i));
      w = cp > 0xffff ? 2 : 1;
      if (cls === LETTER || cls === DIGIT) {
        if (last === KATAKANA) break;
      } else if (cls === KATAKANA) {
        if (last !== KATAKANA && last !== EXTEND_NUM_LET) break;
      } else if (cls === EXTEND || cls === EXTEND_NUM_LET) {
        // Marks attach to what precedes; connectors join anything wordy.
        if (cls === EXTEND) {
          i += w;
          continue;
        }
      } else if (cls === MID_LETTER || cls === MID_NUM || cls === MID_NUM_LET) {
        const j = skipExtend(text, i + w);
        if (j >= n) break;
        const next = classifyCodePoint(codePointAt(text, j));
        const joinsLetters = last === LETTER && next === LETTER && cls !== MID_NUM;
        const joinsDigits = last === DIGIT && next === DIGIT && cls !== MID_LETTER;
        if (!joinsLetters && !joinsDigits) break;
        i = j;
        continue;
      } else {
        break;
      }
      if (cls !== EXTEND_NUM_LET) wordy = true;
      last = cls;
      i += w;
    }
    if (!wordy) continue;
    if (i - start <= MAX_TOKEN_LENGTH) {
      emit(start, i);
    } else {
      for (let s = start; s < i; s += MAX_TOKEN_LENGTH) emit(s, Math.min(i, s + MAX_TOKEN_LENGTH));
    }
  }
}
