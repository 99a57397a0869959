/**
 * The identity of a stored measure value: a typed key (method, measure with its
 * parameters and cutoff, source, judge) with one formatter into the columns of
 * `measures` ({@linkcode formatMeasureKey}) and one parser back
 * ({@linkcode parseMeasureKey}); and the stored names of the answer-level CRUX
 * values ({@linkcode answerMeasureName}), which report judging writes and the
 * analyses look up.
 *
 * The spelling rule of a stored name: every parameter whose value differs from
 * the measure's declared default in the registry (a constant of the workbench,
 * never a configuration value such as `construct.tau`) is written, and only
 * those (`formatMeasure` without command-wide defaults). So `Cov` means tau 3 in
 * every workspace, and judging at tau 4 stores `Cov(tau=4)`. One exception,
 * kept from the stored names of earlier versions: Den of answers (sources
 * `report` and `context`) always writes w (`Den(w=0.5)`).
 *
 * @module
 */
import type { Measure, ParamValue } from "./measure.ts";
import { formatMeasure } from "./format_measure.ts";
import { parseMeasure } from "./parse_measure.ts";
import { defaultRegistry } from "./default_registry.ts";

/** What identifies a stored measure value, apart from its run and topic. */
export interface MeasureKey {
  /** Evaluation method (`trec`, `crux`, `nuggets`, ...). */
  method: string;
  /** The measure with every parameter it was computed with; unregistered names have none. */
  measure: Measure;
  /** Relevance or item source (`selection`, `report`, `contexts(tau=3)`, ...), '' where none applies. */
  source: string;
  /** Judge whose labels produced the value, '' where none applies. */
  judge: string;
}

/** The key columns of a row of `measures`. */
export interface MeasureKeyColumns {
  /** The canonical measure string (`Cov(tau=4)@10`). */
  measure: string;
  /** The measure's name without parameters or cutoff. */
  name: string;
  /** The cutoff as written, '' for none. */
  cutoff: string;
  method: string;
  source: string;
  judge: string;
}

/**
 * The key columns of a measure key: the measure string by the canonical rule
 * (see the module comment); a measure the registry does not hold (`KPR`,
 * `strict_vital`) is written as its name.
 *
 * @param key The key.
 * @returns The columns.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMeasureKey } from "@lib/metrics/measure_key.ts";
 * const key = { method: "crux", source: "report", judge: "j" };
 * assert.equal(formatMeasureKey({ ...key, measure: { name: "Cov", params: { tau: 4 } } }).measure, "Cov(tau=4)");
 * assert.equal(formatMeasureKey({ ...key, measure: { name: "Cov", params: { tau: 3 } } }).measure, "Cov");
 * ```
 */
export function formatMeasureKey(key: MeasureKey): MeasureKeyColumns {
  const m = key.measure;
  const known = defaultRegistry().get(m.name) !== undefined;
  return {
    measure: known ? formatMeasure(m) : m.name,
    name: m.name,
    cutoff: m.cutoff === undefined ? "" : String(m.cutoff),
    method: key.method,
    source: key.source,
    judge: key.judge,
  };
}

/**
 * The measure key of a stored row: the measure string parsed with every
 * parameter written out (declared defaults filled in), so keys of one value
 * compare equal however it was spelled.
 *
 * @param row The key columns of a stored row (`measure`, `method`, `source`, `judge`).
 * @returns The key.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMeasureKey } from "@lib/metrics/measure_key.ts";
 * const k = parseMeasureKey({ measure: "Cov@10", method: "crux", source: "selection", judge: "j" });
 * assert.deepEqual(k.measure, { name: "Cov", params: { tau: 3, filter_by_oracle: true }, cutoff: 10 });
 * ```
 */
export function parseMeasureKey(
  row: { measure: string; method: string; source: string; judge: string },
): MeasureKey {
  const registry = defaultRegistry();
  let measure: Measure;
  try {
    const parsed = parseMeasure(row.measure, { registry });
    const def = registry.require(parsed.name);
    const params: Record<string, ParamValue> = {};
    for (const [k, spec] of Object.entries(def.params)) {
      params[k] = parsed.params[k] ?? spec.default;
    }
    measure = { ...parsed, params };
  } catch {
    measure = { name: row.measure, params: {} };
  }
  return { method: row.method, measure, source: row.source, judge: row.judge };
}

/**
 * The stored name of an answer-level CRUX value (Cov(y), Den(y) of reports,
 * and of the contexts reports were written from) at threshold `tau` and
 * density exponent `w`: report judging writes these names and the analyses
 * look them up with this function. Cov follows the canonical rule; Den always
 * writes w, and tau where it is not the declared default.
 *
 * @param name `Cov` or `Den`.
 * @param tau The answerability threshold the value was computed at.
 * @param w The density exponent (Den only).
 * @returns The measure string.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerMeasureName } from "@lib/metrics/measure_key.ts";
 * assert.equal(answerMeasureName("Cov", 3, 0.5), "Cov");
 * assert.equal(answerMeasureName("Cov", 4, 0.5), "Cov(tau=4)");
 * assert.equal(answerMeasureName("Den", 3, 0.5), "Den(w=0.5)");
 * assert.equal(answerMeasureName("Den", 4, 1), "Den(tau=4,w=1)");
 * ```
 */
export function answerMeasureName(name: "Cov" | "Den", tau: number, w: number): string {
  const cov = formatMeasure({ name: "Cov", params: { tau } });
  if (name === "Cov") return cov;
  // `Cov(tau=4)` -> `tau=4`: the same rule for tau as Cov, then w written always.
  const tauPart = cov.slice(4, -1);
  return `Den(${tauPart ? `${tauPart},` : ""}w=${w})`;
}
