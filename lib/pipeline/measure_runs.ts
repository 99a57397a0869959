/**
 * The measure step: a workspace's runs evaluated against its passage ratings,
 * the selection's qrels and token counts, stored in `metrics`.
 *
 * @module
 */
import type { MetricRow } from "@lib/types/mod.ts";
import { evaluate } from "@lib/metrics/mod.ts";
import {
  readPassages,
  readQrels,
  readRatings,
  readSubquestions,
  type Workspace,
} from "@lib/store/mod.ts";

/** Options of {@linkcode measureRuns}. */
export interface MeasureRunsOptions {
  /** Measures. Default `Cov@oracle`, `Den@oracle`, `alpha_nDCG@oracle`. */
  measures?: readonly string[];
  /** Answerability threshold. Default 3. */
  tau?: number;
  /** Judge of the passage ratings. Default: every passage rating (one judge expected). */
  judge?: string;
}

/**
 * Evaluates stored runs with the workspace's judgments: ratings of the
 * passages (reports excluded), the selection's `crux_pr` and `crux_div` qrels
 * and the stored token counts. A passage without a token count is an error
 * naming it, never a silent 0. Per-topic and aggregate rows replace the runs'
 * earlier `metrics` rows.
 *
 * @param ws The workspace.
 * @param runs Run names.
 * @param opts Measures, tau and judge.
 * @returns The aggregate rows (topic `all`).
 * @throws {RangeError} When a retrieved passage has no token count and Den is asked.
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
  const questions = await readSubquestions(ws);
  const byItem = new Map<string, Map<string, number>>();
  for (const r of await readRatings(ws, opts.judge)) {
    if (r.itemId.includes(":report")) continue;
    let m = byItem.get(r.itemId);
    if (!m) byItem.set(r.itemId, m = new Map());
    m.set(r.questionId, r.rating);
  }
  const passages = [...(await readPassages(ws)).values()].flat();
  const tokens = new Map(passages.map((p) => [p.passageId, p.tokens]));
  const judgments = passages.filter((p) => byItem.has(p.passageId) && questions.has(p.topicId))
    .map((p) => ({
      topicId: p.topicId,
      itemId: p.passageId,
      ratings: questions.get(p.topicId)!.map((q) =>
        byItem.get(p.passageId)!.get(q.questionId) ?? 0
      ),
    }));
  const rows = (await Promise.all(runs.map((r) => ws.runRows(r)))).flat();
  const result = evaluate(
    rows,
    opts.measures ?? ["Cov@oracle", "Den@oracle", "alpha_nDCG@oracle"],
    {
      qrels: await readQrels(ws, "crux_pr"),
      diversityQrels: await readQrels(ws, "crux_div"),
      judgments,
      tokens: (id) => {
        const n = tokens.get(id);
        if (n === undefined || n === null) {
          throw new RangeError(
            `Cannot measure density: passage "${id}" ${
              tokens.has(id) ? "has no token count" : "is not in the workspace's passages"
            }; import or count its text first`,
          );
        }
        return n;
      },
    },
    { tau: opts.tau ?? 3 },
  );
  for (const run of runs) await ws.exec("DELETE FROM metrics WHERE run = $1", [run]);
  await ws.upsert("metrics", [...result.perTopic, ...result.aggregates]);
  return result.aggregates;
}
