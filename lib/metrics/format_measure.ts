/**
 * Printing of parsed measures.
 *
 * @module
 */
import type { Measure, ParamValue } from "./measure.ts";
import type { MeasureRegistry } from "./measure_registry.ts";
import { defaultRegistry } from "./default_registry.ts";
import { effectiveParams, printsParam } from "./_effective_params.ts";

/** Options of {@linkcode formatMeasure}. */
export interface FormatMeasureOptions {
  /** Registry holding the declaration (for defaults). Default: the built-in measures. */
  registry?: MeasureRegistry;
  /**
   * Command-wide values for parameters the measure does not give explicitly,
   * such as `crux eval --tau 4` (`{ tau: 4 }`); `undefined` entries are
   * ignored. Default: none, which prints the canonical short form.
   */
  defaults?: Readonly<Record<string, ParamValue | undefined>>;
}

/**
 * Prints a measure in the canonical ir_measures syntax with its effective
 * parameters (explicit value, else `opts.defaults`, else the declared default).
 * A parameter is printed when its effective value differs from the declared
 * default, or when `opts.defaults` overrides that parameter with a value other
 * than the declared default. So without `defaults` this is the short form
 * (`Cov(tau=3)@10` prints `Cov@10`), the inverse of {@linkcode parseMeasure};
 * with `{ tau: 4 }`, `Cov@10` prints `Cov(tau=4)@10` and `Cov(tau=3)@10`
 * prints `Cov(tau=3)@10`. The result, parsed again with or without the same
 * `defaults`, names a measure with the same effective parameters.
 *
 * Stored names (the `measure` column of `measures`) are always printed without
 * `defaults`, from the parameters the value was computed with: a parameter is
 * written exactly when it differs from the registry's declared default, so a
 * stored name never depends on a configuration (`construct.tau` 4 stores
 * `Cov(tau=4)`, never `Cov`). `formatMeasureKey` (`measure_key.ts`) is the one
 * formatter of a stored key.
 *
 * @param measure A parsed measure.
 * @param opts `registry` (default: the built-in measures), `defaults` (default: none).
 * @returns The canonical string, e.g. `alpha_nDCG(alpha=0.3)@20`.
 * @throws {Error} When the measure name is not registered or a parameter is not declared.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMeasure, parseMeasure } from "@lib/metrics/mod.ts";
 * assert.equal(formatMeasure({ name: "Den", params: { w: 1 }, cutoff: "oracle" }), "Den(w=1)@oracle");
 * assert.equal(formatMeasure(parseMeasure("Cov(tau=3)@10")), "Cov@10");
 * assert.equal(formatMeasure(parseMeasure("Cov@10"), { defaults: { tau: 4 } }), "Cov(tau=4)@10");
 * assert.equal(formatMeasure(parseMeasure("Cov(tau=3)@10"), { defaults: { tau: 4 } }), "Cov(tau=3)@10");
 * ```
 */
export function formatMeasure(measure: Measure, opts: FormatMeasureOptions = {}): string {
  const def = (opts.registry ?? defaultRegistry()).require(measure.name);
  for (const key of Object.keys(measure.params)) {
    if (!(key in def.params)) {
      throw new Error(`Cannot format measure ${def.name}: it has no parameter "${key}"`);
    }
  }
  const parts = Object.entries(effectiveParams(def, measure, opts.defaults))
    .filter(([key, value]) => printsParam(def, key, value, opts.defaults))
    .map(([key, value]) => `${key}=${value}`);
  const params = parts.length ? `(${parts.join(",")})` : "";
  const cutoff = measure.cutoff === undefined ? "" : `@${measure.cutoff}`;
  return `${def.name}${params}${cutoff}`;
}
