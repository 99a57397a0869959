/**
 * The one rule for a measure's effective parameters, shared by
 * `formatMeasure` (which prints them) and the evaluator (which uses them).
 *
 * @module
 */
import type { Measure, MeasureDef, ParamValue } from "./measure.ts";

/** Command-wide values for parameters a measure string leaves out (`--tau`, `--rel`). */
export type ParamDefaults = Readonly<Record<string, ParamValue | undefined>>;

/**
 * Effective parameters in declaration order: the value written in the measure
 * string, else the command-wide default, else the declared default.
 */
export function effectiveParams(
  def: MeasureDef,
  measure: Measure,
  defaults: ParamDefaults = {},
): Record<string, ParamValue> {
  const params: Record<string, ParamValue> = {};
  for (const [name, spec] of Object.entries(def.params)) {
    params[name] = measure.params[name] ?? defaults[name] ?? spec.default;
  }
  return params;
}

/**
 * Whether a key prints parameter `name`: when its effective value differs from
 * the declared default, or when a command-wide default that differs from the
 * declared one is in effect (so `Cov(tau=3)@10` under `--tau 4` keeps its `tau=3`).
 */
export function printsParam(
  def: MeasureDef,
  name: string,
  value: ParamValue,
  defaults: ParamDefaults = {},
): boolean {
  const declared = def.params[name].default;
  const shared = defaults[name];
  return value !== declared || (shared !== undefined && shared !== declared);
}
