/**
 * Where the comparison stores a method's mean per run over the answers every
 * compared method scored for that run: the key shared by the compare stage
 * that writes the row and the system table that shows it.
 *
 * @module
 */

/** What of a compared method names its system mean's row. */
export interface SystemMeanMethod {
  method: string;
  judge: string;
  measure: string;
}

/**
 * The key of a method's stored system mean for a run (method `compare`,
 * topic `all`): the run, the method's judge and headline measure, and source
 * `shared:<method>` (the answers every compared method scored), which no
 * method's own rows use.
 *
 * @param run The run.
 * @param m The compared method.
 * @returns The row's run, source, judge and measure.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemMeanKey } from "@lib/methods/compare/system_mean_key.ts";
 * assert.deepEqual(systemMeanKey("rag", { method: "crux", judge: "lexical", measure: "Cov" }), {
 *   run: "rag",
 *   source: "shared:crux",
 *   judge: "lexical",
 *   measure: "Cov",
 * });
 * ```
 */
export function systemMeanKey(
  run: string,
  m: SystemMeanMethod,
): { run: string; source: string; judge: string; measure: string } {
  return { run, source: `shared:${m.method}`, judge: m.judge, measure: m.measure };
}
