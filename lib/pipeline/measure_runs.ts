/**
 * The measure step: a workspace's runs evaluated against its passage ratings,
 * the selection's qrels and token counts, stored in the measure table `measures`.
 *
 * @module
 */
import type { MetricRow } from "@lib/types/mod.ts";
import { evaluate } from "@lib/metrics/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import { workspaceJudged } from "./workspace_judged.ts";
import { evaluateAvailable } from "./evaluate_available.ts";
import { storeMeasures } from "./store_measures.ts";

/** Options of {@linkcode measureRuns}. */
export interface MeasureRunsOptions {
  /** Measures. Default `Cov@oracle`, `Den@oracle`, `alpha_nDCG@oracle`. */
  measures?: readonly string[];
  /** Answerability threshold. Default 3. */
  tau?: number;
  /** Judge of the passage ratings. Default: every passage rating (one judge expected). */
  judge?: string;
  /**
   * What to do when a density measure needs a passage the workspace has no
   * tokens for: `error` (default) throws naming it; `skip` measures everything
   * else and tells `onNote` which density measures were left out and why.
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
 * `measures` (see {@linkcode storeMeasures}), replacing rows of the same keys.
 *
 * @param ws The workspace.
 * @param runs Run names.
 * @param opts Measures, tau and judge.
 * @returns The aggregate rows (topic `all`).
 * @throws {MissingTokensError} When a retrieved passage has no token count, Den is asked and `missingTokens` is not `skip`.
 * @example
 * ```ts
 * import { measureRuns } from "@lib/pipeline/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace; // a workspace with runs, ratings and the selection's qrels
 * const rows = await measureRuns(ws, ["bm25"], { measures: ["Cov@10", "Den@oracle"] });
 * ```
 */
export async function measureRuns(
  ws: Workspace,
  runs: readonly string[],
  opts: MeasureRunsOptions = {},
): Promise<MetricRow[]> {
  const { inputs, judge, source } = await workspaceJudged(ws, { judge: opts.judge });
  const rows = (await Promise.all(runs.map((r) => ws.runRows(r)))).flat();
  const measures = opts.measures ?? ["Cov@oracle", "Den@oracle", "alpha_nDCG@oracle"];
  const tau = opts.tau ?? 3;
  const { result, kept, leftOut } = opts.missingTokens === "skip"
    ? evaluateAvailable(rows, measures, inputs, { tau })
    : { result: evaluate(rows, measures, inputs, { tau }), kept: measures, leftOut: undefined };
  if (leftOut !== undefined) {
    const density = measures.filter((m) => !kept.includes(m));
    opts.onNote?.(`${density.join(", ")} not measured for ${runs.join(", ")}: ${leftOut}`);
  }
  await storeMeasures(ws, result, { judge, source });
  return result.aggregates;
}
