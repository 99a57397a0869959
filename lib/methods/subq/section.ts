/**
 * Parser of the `subq` section of an experiment config.
 *
 * @module
 */
import { dirname, isAbsolute, resolve } from "node:path";
import type { CoreVariant } from "@lib/subq/mod.ts";

/** The `subq` section of an experiment config. */
export interface SubqSection {
  /** `decompose` (default): about `n` sub-questions of each request; `crux`: the CRUX ones. */
  source?: "decompose" | "crux";
  /** Sub-questions per request. Default 20. */
  n?: number;
  /** Labelled decomposition file for few-shot typing; `none` = zero-shot. Default: built-in examples. */
  examples?: string;
  /** Overlap threshold of the offline coverage judge. Default 0.5. */
  threshold?: number;
  /** Judge the retrieved chunks (#2-#5). Default true. */
  chunks?: boolean;
  /** Rating weights. Default core 1, background 0.5, follow-up -1. */
  weights?: { core: number; background: number; "follow-up": number };
  /** Core sub-question RAG variants. Default all four; `[]` for none. */
  variants?: CoreVariant[];
  /** Run the variants are compared with. Default the first answer run. */
  baseline?: string;
  depth?: number;
  perQuestion?: number;
  /** Pairwise preference file (JSONL). */
  preferences?: string;
  /**
   * Who made the preferences: `human` (only then are they called human), `model`, or
   * `made-up` (invented for a demo, like the sample's). Undeclared: said so in the tables.
   */
  preferencesOrigin?: "human" | "model" | "made-up";
  /** Validation share of the weight search. Default 0.5. */
  validation?: number;
  seed?: number;
}

/** SHA-256 hex of a text. */
export async function sha(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const FIELDS = [
  "source",
  "n",
  "examples",
  "threshold",
  "chunks",
  "weights",
  "variants",
  "baseline",
  "depth",
  "perQuestion",
  "preferences",
  "preferencesOrigin",
  "validation",
  "seed",
];
const VARIANTS = ["def", "query", "retrieval", "e2e"];

/** Checks a `subq` section; errors name the file and the field. Paths resolve against the config file. */
export function parseSubqSection(raw: unknown, file: string): SubqSection {
  const bad = (field: string, message: string) =>
    new TypeError(`${file}: subq.${field}: ${message}`);
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new TypeError(`${file}: subq: expected an object`);
  }
  const r = raw as Record<string, unknown>;
  for (const k of Object.keys(r)) {
    if (!FIELDS.includes(k)) throw bad(k, `unknown field; known: ${FIELDS.join(", ")}`);
  }
  const out: SubqSection = {};
  const path = (v: string) => (isAbsolute(v) ? v : resolve(dirname(file), v));
  const int = (k: "n" | "depth" | "perQuestion" | "seed", min: number) => {
    if (r[k] === undefined) return;
    if (!Number.isInteger(r[k]) || (r[k] as number) < min) {
      throw bad(k, `expected an integer >= ${min}, got ${JSON.stringify(r[k])}`);
    }
    out[k] = r[k] as number;
  };
  int("n", 1);
  int("depth", 1);
  int("perQuestion", 1);
  int("seed", 0);
  if (r.source !== undefined) {
    if (r.source !== "decompose" && r.source !== "crux") {
      throw bad("source", 'expected "decompose" or "crux"');
    }
    out.source = r.source;
  }
  if (r.examples !== undefined) {
    if (r.examples !== "none" && typeof r.examples !== "string") {
      throw bad(
        "examples",
        'expected a labelled decomposition file (JSON) or "none" for zero-shot',
      );
    }
    out.examples = r.examples === "none" ? "none" : path(r.examples as string);
  }
  for (const k of ["threshold", "validation"] as const) {
    if (r[k] === undefined) continue;
    const v = r[k];
    if (typeof v !== "number" || !(v > 0 && v <= 1)) {
      throw bad(k, `expected a number in (0, 1], got ${JSON.stringify(v)}`);
    }
    out[k] = v;
  }
  if (r.chunks !== undefined) {
    if (typeof r.chunks !== "boolean") throw bad("chunks", "expected true or false");
    out.chunks = r.chunks;
  }
  if (r.weights !== undefined) {
    const w = r.weights as Record<string, unknown>;
    const keys = ["core", "background", "follow-up"];
    if (
      typeof w !== "object" || w === null || Object.keys(w).some((k) => !keys.includes(k)) ||
      !keys.every((k) => typeof w[k] === "number" && Number.isFinite(w[k]))
    ) throw bad("weights", 'expected { "core": 1, "background": 0.5, "follow-up": -1 }');
    out.weights = w as SubqSection["weights"];
  }
  if (r.variants !== undefined) {
    if (!Array.isArray(r.variants) || !r.variants.every((v) => VARIANTS.includes(v))) {
      throw bad("variants", `expected a list of ${VARIANTS.join(", ")} ([] for none)`);
    }
    out.variants = [...r.variants] as SubqSection["variants"];
  }
  if (r.baseline !== undefined) {
    if (typeof r.baseline !== "string") {
      throw bad("baseline", "expected a generation run name such as rag-bm25");
    }
    out.baseline = r.baseline;
  }
  if (r.preferences !== undefined) {
    if (typeof r.preferences !== "string") {
      throw bad("preferences", "expected a preference file (JSONL)");
    }
    out.preferences = path(r.preferences);
  }
  if (r.preferencesOrigin !== undefined) {
    if (!["human", "model", "made-up"].includes(r.preferencesOrigin as string)) {
      throw bad(
        "preferencesOrigin",
        `expected "human", "model" or "made-up", got ${JSON.stringify(r.preferencesOrigin)}`,
      );
    }
    out.preferencesOrigin = r.preferencesOrigin as SubqSection["preferencesOrigin"];
  }
  return out;
}
