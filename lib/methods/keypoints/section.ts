/**
 * Parser of the `keypoints` section of an experiment config.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import type { KeyPointSection } from "./stages.ts";

const INTS: Record<string, number> = { rounds: 1, perRound: 1, reasks: 0, oracleGrade: 1 };
const FRACTIONS = ["mergeThreshold", "entailThreshold"];
const FIELDS = [...Object.keys(INTS), ...FRACTIONS, "precision", "qrels", "buckets", "file"];

/** Checks a `keypoints` section; errors name the file and the field. */
export function parseKeyPointSection(raw: unknown, file: string): KeyPointSection {
  const bad = (field: string, message: string) =>
    new TypeError(`${file}: keypoints.${field}: ${message}`);
  if (raw === undefined || raw === null || raw === true) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new TypeError(`${file}: keypoints: expected an object (or true for the defaults)`);
  }
  const r = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) {
    if (!FIELDS.includes(k)) throw bad(k, `unknown field; known: ${FIELDS.join(", ")}`);
    if (k in INTS) {
      if (!Number.isInteger(v) || (v as number) < INTS[k]) {
        throw bad(k, `expected an integer >= ${INTS[k]}, got ${JSON.stringify(v)}`);
      }
    } else if (FRACTIONS.includes(k)) {
      if (typeof v !== "number" || !(v > 0 && v <= 1)) {
        throw bad(k, `expected a number in (0, 1], got ${JSON.stringify(v)}`);
      }
    } else if (k === "precision" && typeof v !== "boolean") {
      throw bad(k, `expected true or false, got ${JSON.stringify(v)}`);
    } else if (k === "file" && (typeof v !== "string" || !v)) {
      throw bad(k, `expected the path of a key point file, got ${JSON.stringify(v)}`);
    } else if (k === "file") {
      out[k] = resolve(dirname(file), v as string); // relative to the config file
      continue;
    } else if (k === "qrels" && (typeof v !== "string" || !v)) {
      throw bad(k, `expected a qrels name such as "crux_pr", got ${JSON.stringify(v)}`);
    } else if (k === "buckets") {
      const b = v as Record<string, unknown>;
      if (typeof b !== "object" || b === null || Array.isArray(b)) {
        throw bad(k, 'expected { "input": [edges], "response": [edges] }');
      }
      for (const [side, edges] of Object.entries(b)) {
        const ok = Array.isArray(edges) && edges.length > 0 &&
          edges.every((e, i) => typeof e === "number" && e > 0 && (i === 0 || e > edges[i - 1]));
        if (!["input", "response"].includes(side) || !ok) {
          throw bad(
            `buckets.${side}`,
            "expected input or response with increasing token edges > 0",
          );
        }
      }
      out[k] = structuredClone(b);
      continue;
    }
    out[k] = v;
  }
  return out as KeyPointSection;
}
