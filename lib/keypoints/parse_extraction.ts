/**
 * Reading the extraction protocol's output.
 *
 * @module
 */
import { parseJsonValue, type ParseResult } from "@lib/llm/mod.ts";
import { pointLines } from "./_point_lines.ts";

/** A list of objects with a "point" (the shape asked for; `[]` included). */
const points = (v: unknown) =>
  (v as unknown[]).every((x) => typeof (x as { point?: unknown } | null)?.point === "string");

/** One extracted point as the model wrote it. */
export interface RawPoint {
  text: string;
  spans: string[];
}

/** The keys an extracted item may have. */
const KEYS = ["point", "spans"];

/** A spans field: `Spans: "a"; "b"`, `Supporting span: ...`, `Evidence: ...`. */
const SPANS =
  /(?:^|\s*[(\[]\s*|\s+)(?:supporting\s+)?(?:spans?|evidence|quotes?)\s*:\s*(.*?)[)\]]?$/i;

/** The quoted strings of a spans field, or its whole value when nothing is quoted. */
function quoted(value: string): string[] {
  const q = [...value.matchAll(/"([^"]+)"|“([^”]+)”/g)].map((m) => (m[1] ?? m[2]).trim());
  const v = value.trim();
  return q.length ? q : v ? [v] : [];
}

/** Points stated as Long2RAG's numbered lines, with spans stated beside or below them. */
function numberedPoints(text: string): ParseResult<RawPoint[]> | undefined {
  const lines = pointLines(text);
  if (!lines) return undefined;
  const out: RawPoint[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.number !== i + 1) {
      return { ok: false, raw: text, reason: `point ${line.number} follows point ${i}` };
    }
    const inline = SPANS.exec(line.text);
    const point = (inline ? line.text.slice(0, inline.index) : line.text).trim();
    if (!point) return { ok: false, raw: text, reason: `point ${i + 1} is empty` };
    const spans = inline ? quoted(inline[1]) : [];
    let under = false;
    for (const more of line.more) {
      const field = SPANS.exec(more);
      if (field && field.index === 0) {
        spans.push(...quoted(field[1]));
        under = true;
      } else if (under && /^["“]/.test(more.replace(/^[-*•]\s*/, ""))) {
        spans.push(...quoted(more));
      }
    }
    out.push({ text: point, spans });
  }
  return { ok: true, value: out };
}

/**
 * Reads a JSON array of `{"point": string, "spans": [string, ...]}` (code
 * fences and surrounding text tolerated), or Long2RAG's own numbered lines
 * (`Point 1: ...`, spans given as `Spans: "..."` beside or below the point).
 * An item without a non-empty point, with spans that are not strings, or with
 * a key other than `point` and `spans` (`"span"` would drop its spans) makes
 * the whole answer unparseable (the caller re-asks); `[]` is a valid answer
 * (no further points). Reasoning (`<think>` blocks) is not read.
 *
 * @param text Model output.
 * @returns The points, or a failure carrying the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseExtraction } from "@lib/keypoints/mod.ts";
 * assert.deepEqual(parseExtraction('[{"point": "It opened in 1932.", "spans": ["opened in 1932"]}]'), { ok: true, value: [{ text: "It opened in 1932.", spans: ["opened in 1932"] }] });
 * assert.deepEqual(parseExtraction('Point 1: It opened in 1932.\nSpans: "opened in 1932"'), { ok: true, value: [{ text: "It opened in 1932.", spans: ["opened in 1932"] }] });
 * assert.equal(parseExtraction('[{"point": "It opened in 1932.", "span": ["opened in 1932"]}]').ok, false);
 * ```
 */
export function parseExtraction(text: string): ParseResult<RawPoint[]> {
  // The last list of points; failing that, any list, so the reason names the bad item.
  let json = parseJsonValue(text, "array", { fits: points });
  if (!json.ok && !/unclosed/.test(json.reason)) {
    const numbered = numberedPoints(text);
    if (numbered) return numbered;
    const any = parseJsonValue(text, "array");
    if (any.ok) json = any;
  }
  if (!json.ok) return json;
  const out: RawPoint[] = [];
  for (const [i, item] of (json.value as unknown[]).entries()) {
    const o = item as { point?: unknown; spans?: unknown };
    if (!o || typeof o !== "object" || typeof o.point !== "string" || !o.point.trim()) {
      return { ok: false, raw: text, reason: `item ${i + 1} has no "point" string` };
    }
    const unknown = Object.keys(o).filter((k) => !KEYS.includes(k));
    if (unknown.length) {
      return {
        ok: false,
        raw: text,
        reason: `item ${i + 1} has unknown key(s) ${
          unknown.map((k) => JSON.stringify(k)).join(", ")
        }; expected "point" and "spans"`,
      };
    }
    const spans = o.spans ?? [];
    if (!Array.isArray(spans) || spans.some((s) => typeof s !== "string")) {
      return { ok: false, raw: text, reason: `item ${i + 1}: "spans" must be a list of strings` };
    }
    out.push({ text: o.point.trim(), spans: spans as string[] });
  }
  return { ok: true, value: out };
}
