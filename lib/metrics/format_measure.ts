/**
 * Printing of parsed measures.
 *
 * @module
 */
import type { Measure } from "./measure.ts";
import type { MeasureRegistry } from "./measure_registry.ts";
import { defaultRegistry } from "./default_registry.ts";

/** Options of {@linkcode formatMeasure}. */
export interface FormatMeasureOptions {
  /** Registry holding the declaration (for defaults). Default: the built-in measures. */
  registry?: MeasureRegistry;
}

/**
 * Prints a measure in the canonical ir_measures syntax, omitting parameters
 * equal to their defaults; the inverse of {@linkcode parseMeasure}.
 *
 * @param measure A parsed measure.
 * @param opts `registry` (default: the built-in measures).
 * @returns The canonical string, e.g. `alpha_nDCG(alpha=0.3)@20`.
 * @throws {Error} When the measure name is not registered.
 * @example
 * ```ts
 * import { formatMeasure } from "@lib/metrics/mod.ts";
 * formatMeasure({ name: "Den", params: { w: 1 }, cutoff: "oracle" }); // "Den(w=1)@oracle"
 * ```
 */
export function formatMeasure(measure: Measure, opts: FormatMeasureOptions = {}): string {
  const def = (opts.registry ?? defaultRegistry()).require(measure.name);
  const parts: string[] = [];
  for (const [key, spec] of Object.entries(def.params)) {
    const value = measure.params[key];
    if (value !== undefined && value !== spec.default) parts.push(`${key}=${value}`);
  }
  for (const key of Object.keys(measure.params)) {
    if (!(key in def.params)) {
      throw new Error(`Cannot format measure ${def.name}: it has no parameter "${key}"`);
    }
  }
  const params = parts.length ? `(${parts.join(",")})` : "";
  const cutoff = measure.cutoff === undefined ? "" : `@${measure.cutoff}`;
  return `${def.name}${params}${cutoff}`;
}
