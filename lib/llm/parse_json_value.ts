import type { ParseResult } from "./types.ts";

function closing(text: string, start: number): number {
  const open = text[start];
  const close = open === "[" ? "]" : "}";
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) return c === close ? i : -1;
    }
  }
  return -1;
}

/**
 * Reads a JSON array or object from a model output, tolerating code fences
 * (```` ```json ````) and text before or after: each candidate starting at `[`
 * (or `{`) is cut at its balanced closing bracket and parsed; the first that
 * parses wins.
 *
 * @param text Model output.
 * @param kind `array` or `object`.
 * @returns The value, or a failure carrying the raw text.
 * @example
 * ```ts
 * parseJsonValue('Here you go:\n```json\n["a", "b"]\n```', "array"); // { ok: true, value: ["a", "b"] }
 * ```
 */
export function parseJsonValue(text: string, kind: "array" | "object"): ParseResult<unknown> {
  const open = kind === "array" ? "[" : "{";
  for (let start = text.indexOf(open); start >= 0; start = text.indexOf(open, start + 1)) {
    const end = closing(text, start);
    if (end < 0) continue;
    try {
      const value = JSON.parse(text.slice(start, end + 1));
      if (kind === "array" ? Array.isArray(value) : value && !Array.isArray(value)) {
        return { ok: true, value };
      }
    } catch {
      // try the next candidate
    }
  }
  return { ok: false, raw: text, reason: `no JSON ${kind} found` };
}
