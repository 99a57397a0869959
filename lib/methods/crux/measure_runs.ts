/**
 * The measure step: a workspace's runs evaluated against its passage ratings,
 * the selection's qrels and token counts, stored in the measure table `measures`.
 *
 * @module
 */
import type { MetricRow } from "@lib/types/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import { measureValues } from "./measure_values.ts";

/** Options of {@linkcode measureRuns}. */
export interface MeasureRunsOptions {
  /** Measures. Default `Cov@oracle`, `Den@oracle`, `alpha_nDCG@oracle`. */
  measures?: readonly string[];
  /** Answerability threshold. Default 3. */
  tau?: number;
  /** Judge of the passage ratings. Default: the only judge that rated passages (an error when several). */
  judge?: string;
  /**
   * What to do when a density measure needs a passage the workspace has no
   * tokens for: `error` (default) throws naming it; `skip` measures everything
   * else and tells `onNote` which density measures were left out and why (they
   * are not stored, so the next call tries them again).
   */
  missingTokens?: "error" | "skip";
  /** Notes (density measures left out). */
  onNote?: (message: string) => void;
}

/**
 * Evaluates stored runs with the workspace's judgments: ratings of the
 * passages (reports excluded), the selection's `crux_pr` and `crux_div` qrels
 * and the stored token counts. A passage without a token count is an error
 * naming it, never a silent 0. Per-topic and aggregate rows are stored in
 * `measures` (see {@linkcode measureValues}): values already stored whose inputs
 * (the run's rows, the judge's ratings, the sub-questions, the qrels and the token
 * counts) are unchanged are reused, only missing measures are evaluated.
 *
 * @param ws The workspace.
 * @param runs Run names.
 * @param opts Measures, tau and judge.
 * @returns The aggregate rows (topic `all`), as `evaluate` gives them.
 * @throws {MissingTokensError} When a retrieved passage has no token count, Den is asked and `missingTokens` is not `skip`.
 * @example
 * ```ts
 * import { measureRuns } from "@lib/methods/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const rows = await measureRuns(ws, ["bm25"], { measures: ["Cov@10", "Den@oracle"] });
 * ```
 */
export async function measureRuns(
  ws: Workspace,
  runs: readonly string[],
  opts: MeasureRunsOptions = {},
): Promise<MetricRow[]> {
  const measures = opts.measures ?? ["Cov@oracle", "Den@oracle", "alpha_nDCG@oracle"];
  const { result } = await measureValues(ws, runs, measures, {
    judge: opts.judge,
    tau: opts.tau,
    missingTokens: opts.missingTokens,
    onNote: opts.onNote,
  });
  return result.aggregates;
}
