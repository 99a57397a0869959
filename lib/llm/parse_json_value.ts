// Reads the last well-formed JSON (or Python) value of the expected shape from a model answer.

import type { ParseResult } from "./types.ts";
import { finalAnswer } from "./final_answer.ts";

/** Options of {@link parseJsonValue}. */
export interface JsonValueOptions {
  /**
   * The shape the caller expects; values that do not fit are not candidates
   * (so `[2]` cited in prose is passed over when strings are expected).
   */
  fits?: (value: unknown) => boolean;
}

/** How a JSON or Python list or object opens (prose in brackets does not). */
const LOOKS_LIKE_VALUE = /^(?:\[\s*(?:[\]"'[{\d-]|true|false|null|True|False|None)|\{\s*["'}])/;

/** End index of the value opened at `start`, or -1 when it never closes. */
function closing(text: string, start: number, quotes: string): number {
  const stack: string[] = [];
  let quote = "";
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (quotes.includes(c)) quote = c;
    else if (c === "[" || c === "{") stack.push(c === "[" ? "]" : "}");
    else if (c === "]" || c === "}") {
      if (stack.pop() !== c) return -2;
      if (!stack.length) return i;
    }
  }
  return -1;
}

/** Python literal syntax (single quotes, trailing commas, True/False/None) as JSON. */
function pythonToJson(src: string): string {
  let out = "";
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'") {
      let s = "";
      let j = i + 1;
      for (; j < src.length && src[j] !== c; j++) {
        if (src[j] === "\\" && j + 1 < src.length) {
          const n = src[++j];
          s += n === "n" ? "\n" : n === "t" ? "\t" : n;
        } else s += src[j];
      }
      out += JSON.stringify(s);
      i = j;
    } else if (c === ",") {
      const rest = src.slice(i + 1).match(/^\s*([\]}])/);
      if (!rest) out += c;
    } else if (/[A-Za-z]/.test(c)) {
      const word = /^[A-Za-z_]+/.exec(src.slice(i))![0];
      out += word === "True"
        ? "true"
        : word === "False"
        ? "false"
        : word === "None"
        ? "null"
        : word;
      i += word.length - 1;
    } else out += c;
  }
  return out;
}

function read(src: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(src) };
  } catch {
    try {
      return { value: JSON.parse(pythonToJson(src)) };
    } catch {
      return undefined;
    }
  }
}

const isEmpty = (v: unknown) =>
  Array.isArray(v) ? v.length === 0 : Object.keys(v as object).length === 0;

/**
 * Reads the JSON (or Python-literal) array or object an answer states, with
 * code fences and prose around it. Only top-level values count: each `[` or
 * `{` outside an earlier value is cut at its balanced closing bracket and read
 * as JSON, else as a Python literal (single quotes, trailing commas,
 * True/False/None). Of the values that are of `kind` and fit `opts.fits`, the
 * last non-empty one wins; an empty one only when no non-empty one fits (so a
 * `[]` cited in prose never replaces the real list). A list wrapped in an
 * object with one key (`{"labels": [...]}`) counts as that list. An answer that
 * ends inside an unclosed bracket (cut by the token limit) is a failure: its
 * complete part is not read as if it were the whole answer.
 *
 * @param raw Model output (reasoning in `<think>` blocks is not read).
 * @param kind `array` or `object`.
 * @param opts `fits`: the expected shape.
 * @returns The value, or a failure carrying the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseJsonValue('Here you go:\n["a", "b"]\nDone.', "array"), { ok: true, value: ["a", "b"] });
 * assert.deepEqual(parseJsonValue("Unlike [] above: ['a', 'b',]", "array"), { ok: true, value: ["a", "b"] });
 * ```
 */
export function parseJsonValue(
  raw: string,
  kind: "array" | "object",
  opts: JsonValueOptions = {},
): ParseResult<unknown> {
  const fits = opts.fits ?? (() => true);
  const text = finalAnswer(raw);
  const values: unknown[] = [];
  for (let start = 0; start < text.length; start++) {
    const c = text[start];
    if (c !== "[" && c !== "{") continue;
    // Closing brackets with and without single-quoted strings: prose apostrophes
    // ("the author's [note]") must not hide a value, nor Python strings break one.
    const ends = [...new Set([closing(text, start, `"'`), closing(text, start, `"`)])];
    if (ends.every((e) => e === -1)) {
      const open = c === "[" ? "array" : "object";
      return {
        ok: false,
        raw,
        reason: `the answer ends inside an unclosed JSON ${open} (cut off?)`,
      };
    }
    const closed = ends.filter((e) => e >= 0).sort((x, y) => x - y);
    if (!closed.length) continue; // mismatched brackets in prose: look further on
    if (!LOOKS_LIKE_VALUE.test(text.slice(start, start + 12))) {
      start = closed[0]; // bracketed prose such as "[see above]" or "{the author}"
      continue;
    }
    // Bracketed prose ("[see above]") or a malformed value is skipped whole, so no
    // piece of a broken value is read as if it were the answer.
    let end = closed[0];
    for (const e of closed) {
      const got = read(text.slice(start, e + 1));
      if (got) {
        values.push(got.value);
        end = e;
        break;
      }
    }
    start = end;
  }
  const asKind = (v: unknown): unknown => {
    if (kind === "object") return v && typeof v === "object" && !Array.isArray(v) ? v : undefined;
    if (Array.isArray(v)) return v;
    if (v && typeof v === "object") {
      const entries = Object.values(v);
      if (entries.length === 1 && Array.isArray(entries[0])) return entries[0];
    }
    return undefined;
  };
  const fitting = values.map(asKind).filter((v) => v !== undefined && fits(v));
  const full = fitting.filter((v) => !isEmpty(v));
  const chosen = full.length ? full[full.length - 1] : fitting[fitting.length - 1];
  if (chosen !== undefined) return { ok: true, value: chosen };
  return {
    ok: false,
    raw,
    reason: values.length
      ? `no JSON ${kind} of the expected shape found (${values.length} other value(s))`
      : `no JSON ${kind} found`,
  };
}
