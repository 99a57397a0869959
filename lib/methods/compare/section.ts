/**
 * Parser of the `compare` section of an experiment config.
 *
 * @module
 */
import type { CompareSection } from "./stages.ts";
import type { MethodHeadline } from "@lib/pipeline/mod.ts";

const FIELDS = ["methods", "judges", "sources", "minRuns", "variance"];

/** Checks a `compare` section against the experiment's methods; errors name the file and the field. */
export function parseCompareSection(
  raw: unknown,
  file: string,
  headlines?: readonly MethodHeadline[],
): CompareSection {
  const bad = (field: string, message: string) =>
    new TypeError(`${file}: compare.${field}: ${message}`);
  if (raw === undefined || raw === null) return {};
  const known = headlines?.map((h) => h.method) ?? [];
  const named = raw !== null && typeof raw === "object" &&
    ["methods", "judges", "sources"].some((k) => k in raw);
  if (!headlines && named) {
    throw new TypeError(
      `${file}: compare: cannot check method names without the experiment's methods; pass their headlines`,
    );
  }
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new TypeError(`${file}: compare: expected an object`);
  }
  const r = raw as Record<string, unknown>;
  for (const k of Object.keys(r)) {
    if (!FIELDS.includes(k)) throw bad(k, `unknown field; known: ${FIELDS.join(", ")}`);
  }
  const out: CompareSection = {};
  if (r.methods !== undefined) {
    if (!Array.isArray(r.methods) || !r.methods.every((m) => known.includes(m))) {
      throw bad("methods", `expected a list of ${known.join(", ")}`);
    }
    out.methods = [...r.methods];
  }
  for (const field of ["judges", "sources"] as const) {
    if (r[field] === undefined) continue;
    const j = r[field] as Record<string, unknown>;
    if (typeof j !== "object" || j === null || Array.isArray(j)) {
      throw bad(field, 'expected an object such as { "nuggets": "gpt-4o" }');
    }
    for (const [m, v] of Object.entries(j)) {
      if (!known.includes(m) || typeof v !== "string") {
        throw bad(`${field}.${m}`, `expected a name for one of ${known.join(", ")}`);
      }
    }
    out[field] = { ...(j as Record<string, string>) };
  }
  if (r.minRuns !== undefined) {
    if (!Number.isInteger(r.minRuns) || (r.minRuns as number) < 2) {
      throw bad("minRuns", `expected an integer >= 2, got ${JSON.stringify(r.minRuns)}`);
    }
    out.minRuns = r.minRuns as number;
  }
  if (r.variance !== undefined) {
    const v = r.variance as Record<string, unknown>;
    if (
      typeof v !== "object" || v === null || !Number.isInteger(v.samples) ||
      (v.samples as number) < 2
    ) {
      throw bad("variance", 'expected { "samples": k >= 2, "temperature": t > 0 }');
    }
    if (v.temperature !== undefined && !(typeof v.temperature === "number" && v.temperature > 0)) {
      throw bad(
        "variance.temperature",
        `expected a number > 0, got ${JSON.stringify(v.temperature)}`,
      );
    }
    out.variance = {
      samples: v.samples as number,
      ...(v.temperature !== undefined ? { temperature: v.temperature as number } : {}),
    };
  }
  return out;
}
