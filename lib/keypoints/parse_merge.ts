/**
 * Reading the merge protocol's output.
 *
 * @module
 */
import { parseJsonValue, type ParseResult } from "@lib/llm/mod.ts";
import type { MergeGroup } from "./types.ts";
import { pointLines } from "./_point_lines.ts";

/** A list of objects with a "point" (the shape asked for). */
const points = (v: unknown) =>
  (v as unknown[]).every((x) => typeof (x as { point?: unknown } | null)?.point === "string");

/** `Point 1: text [1, 3]`: the merged point and the numbers it merges, at the end of its line. */
const MERGED = /^(.*?)\s*[\[(]\s*((?:\d+\s*,\s*)*\d+)\s*[\])]\s*[.]?$/;

/** Merged points stated as Long2RAG's lines `Point 1: ... [1, 3]`, as JSON items. */
function numberedGroups(text: string): ParseResult<unknown[]> | undefined {
  const lines = pointLines(text);
  if (!lines) return undefined;
  const items: unknown[] = [];
  for (const line of lines) {
    const m = MERGED.exec(line.text);
    if (!m) {
      return {
        ok: false,
        raw: text,
        reason: `point ${line.number} names no merged points ("[1, 3]" at its end)`,
      };
    }
    items.push({ point: m[1], sources: m[2].split(",").map((k) => Number(k.trim())) });
  }
  return { ok: true, value: items };
}

/**
 * Reads a JSON array of `{"point": string, "sources": [1-based numbers]}`, or
 * Long2RAG's own lines `Point 1: ... [1, 3]` (the numbers of the points it
 * merges at the end of the line), and checks the merge map: every input point 1..n in exactly one merged point.
 * A map that misses or repeats a point, or names a number outside 1..n, is a
 * failure (the caller re-asks), so no original is lost or counted twice; so
 * is an item with a key other than `point` and `sources`. Reasoning (`<think>`
 * blocks) is not read.
 *
 * @param text Model output.
 * @param n Number of input points.
 * @returns Groups with 0-based sources, or a failure carrying the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMerge } from "@lib/keypoints/mod.ts";
 * assert.deepEqual(parseMerge('[{"point": "A", "sources": [1, 3]}, {"point": "B", "sources": [2]}]', 3), { ok: true, value: [{ text: "A", sources: [0, 2] }, { text: "B", sources: [1] }] });
 * assert.equal(parseMerge('[{"point": "A", "sources": [1]}]', 2).ok, false); // point 2 is in no merged point
 * assert.deepEqual(parseMerge("Point 1: A [1, 3]\nPoint 2: B [2]", 3), { ok: true, value: [{ text: "A", sources: [0, 2] }, { text: "B", sources: [1] }] });
 * ```
 */
export function parseMerge(text: string, n: number): ParseResult<MergeGroup[]> {
  // The last list of points; failing that, any list, so the reason names the bad item.
  let json = parseJsonValue(text, "array", { fits: points });
  const numbered = json.ok || /unclosed/.test(json.reason) ? undefined : numberedGroups(text);
  if (numbered) json = numbered;
  else if (!json.ok && !/unclosed/.test(json.reason)) {
    const any = parseJsonValue(text, "array");
    if (any.ok) json = any;
  }
  if (!json.ok) return json;
  const seen = new Set<number>();
  const groups: MergeGroup[] = [];
  const fail = (reason: string) => ({ ok: false as const, raw: text, reason });
  for (const [i, item] of (json.value as unknown[]).entries()) {
    const o = item as { point?: unknown; sources?: unknown };
    if (!o || typeof o.point !== "string" || !o.point.trim()) {
      return fail(`item ${i + 1} has no "point" string`);
    }
    const unknown = Object.keys(o).filter((k) => k !== "point" && k !== "sources");
    if (unknown.length) {
      return fail(
        `item ${i + 1} has unknown key(s) ${
          unknown.map((k) => JSON.stringify(k)).join(", ")
        }; expected "point" and "sources"`,
      );
    }
    if (!Array.isArray(o.sources) || !o.sources.length) {
      return fail(`item ${i + 1} has no "sources" list`);
    }
    const sources: number[] = [];
    for (const s of o.sources) {
      const k = typeof s === "string" ? Number(s) : s;
      if (!Number.isInteger(k) || k < 1 || k > n) return fail(`item ${i + 1}: no input point ${s}`);
      if (seen.has(k)) return fail(`input point ${k} is in more than one merged point`);
      seen.add(k);
      sources.push(k - 1);
    }
    groups.push({ text: o.point.trim(), sources });
  }
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !seen.has(k));
  if (missing.length) return fail(`input points ${missing.join(", ")} are in no merged point`);
  return { ok: true, value: groups };
}
