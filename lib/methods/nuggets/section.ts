/**
 * Parser of the `nuggets` section of an experiment config.
 *
 * @module
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { listedOnce } from "@lib/pipeline/mod.ts";
import type { NuggetsSection } from "./stages.ts";

const INTS = { window: 1, maxNuggets: 1, keep: 1, reasks: 0, minGrade: 0 } as const;
const SHARES = ["support", "partial", "vitalShare"] as const;
const FIELDS = [
  "nuggets",
  "format",
  "answers",
  "runs",
  "qrels",
  ...Object.keys(INTS),
  ...SHARES,
];

/** Checks a `nuggets` section; errors name the file and the field. Paths resolve against the config file. */
export function parseNuggetsSection(raw: unknown, file: string): NuggetsSection {
  const bad = (field: string, message: string) =>
    new TypeError(`${file}: nuggets.${field}: ${message}`);
  if (raw === undefined || raw === null || raw === true) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new TypeError(`${file}: nuggets: expected an object (or true for the defaults)`);
  }
  const r = raw as Record<string, unknown>;
  for (const k of Object.keys(r)) {
    if (!FIELDS.includes(k)) throw bad(k, `unknown field; known: ${FIELDS.join(", ")}`);
  }
  const out: NuggetsSection = {};
  const path = (v: string) => (isAbsolute(v) ? v : resolve(dirname(file), v));
  for (const [k, min] of Object.entries(INTS) as [keyof typeof INTS, number][]) {
    if (r[k] === undefined) continue;
    if (!Number.isInteger(r[k]) || (r[k] as number) < min) {
      throw bad(k, `expected an integer >= ${min}, got ${JSON.stringify(r[k])}`);
    }
    out[k] = r[k] as number;
  }
  for (const k of SHARES) {
    if (r[k] === undefined) continue;
    if (typeof r[k] !== "number" || (r[k] as number) < 0 || (r[k] as number) > 1) {
      throw bad(k, `expected a number between 0 and 1, got ${JSON.stringify(r[k])}`);
    }
    out[k] = r[k] as number;
  }
  if (out.partial !== undefined && out.support !== undefined && out.partial > out.support) {
    throw bad("partial", `must not exceed support (${out.support})`);
  }
  if (r.nuggets !== undefined) {
    if (typeof r.nuggets !== "string" || !r.nuggets) {
      throw bad("nuggets", `expected "created" or the path of a nugget file`);
    }
    out.nuggets = r.nuggets === "created" ? "created" : path(r.nuggets);
  }
  if (r.format !== undefined) {
    if (r.format !== "nuggets" && r.format !== "questions") {
      throw bad(
        "format",
        `expected "nuggets" (TREC RAG) or "questions" (NeuCLIR nugget questions)`,
      );
    }
    if (out.nuggets === undefined || out.nuggets === "created") {
      throw bad("format", "only applies with a nugget file in nuggets.nuggets");
    }
    out.format = r.format;
  }
  const strings = (k: "answers" | "runs") => {
    const v = r[k];
    if (v === undefined) return;
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || !x)) {
      throw bad(k, `expected a list of ${k === "answers" ? "file paths" : "run names"}`);
    }
    out[k] = k === "answers"
      ? listedOnce((v as string[]).map(path), "answers", bad).paths
      : [...new Set(v as string[])];
  };
  strings("answers");
  strings("runs");
  if (r.qrels !== undefined) {
    if (typeof r.qrels !== "string" || !r.qrels) throw bad("qrels", "expected a qrels name");
    out.qrels = r.qrels;
  }
  return out;
}
