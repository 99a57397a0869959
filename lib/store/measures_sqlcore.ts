/**
 * Reads of the `measures` table for the method analyses (judge variance, key
 * point recall, nugget scores).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** One row of the judge-variance measures. */
export interface JudgeVarianceRow {
  /** The run, or `""` for values over all runs (samples, ranking agreement, Kendall tau-b). */
  run: string;
  measure: string;
  value: number | null;
  judge: string;
  source: string;
}

/**
 * The measures of the judge-variance stage (method `judge-variance`).
 *
 * @param ws The workspace.
 * @returns The rows, ordered by run and measure; empty when the stage has not run.
 * @example
 * ```ts
 * import { readJudgeVarianceRows } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const rows = await readJudgeVarianceRows(ws);
 * ```
 */
export async function readJudgeVarianceRows(ws: WorkspaceLike): Promise<JudgeVarianceRow[]> {
  return await ws.query<JudgeVarianceRow>(
    `SELECT run, measure, value, judge, source FROM measures WHERE method = 'judge-variance'
     ORDER BY run, measure`,
  );
}

/** A judge and source of a method's measures, with its number of rows. */
export interface MeasureJudgeSource {
  judge: string;
  source: string;
  n: number;
}

/** Options of {@linkcode readMeasureJudgeSources}. */
export interface MeasureJudgeSourceOptions {
  /** Only this source (when given). */
  source?: string;
  /** Only this judge (when given). */
  judge?: string;
  /** Count only the per-topic rows (not `all`) of this measure. */
  perTopicMeasure?: string;
}

/**
 * The (judge, source) pairs of one method's measures, the most rows first
 * (ties by judge, then source): the first is the default pair of an analysis.
 *
 * @param ws The workspace.
 * @param method The method (`keypoints`, `nuggets`, ...).
 * @param opts Source and judge filters; `perTopicMeasure` counts only per-topic rows of that measure.
 * @returns The pairs with their row counts.
 * @example
 * ```ts
 * import { readMeasureJudgeSources } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const [first] = await readMeasureJudgeSources(ws, "nuggets", { perTopicMeasure: "strict_vital" });
 * ```
 */
export async function readMeasureJudgeSources(
  ws: WorkspaceLike,
  method: string,
  opts: MeasureJudgeSourceOptions = {},
): Promise<MeasureJudgeSource[]> {
  const perTopic = opts.perTopicMeasure === undefined
    ? ""
    : "AND topic_id <> 'all' AND measure = $4";
  return await ws.query<MeasureJudgeSource>(
    `SELECT judge, source, count(*)::INT AS n FROM measures
     WHERE method = $1 ${perTopic}
       AND ($2::VARCHAR IS NULL OR source = $2) AND ($3::VARCHAR IS NULL OR judge = $3)
     GROUP BY ALL ORDER BY n DESC, judge, source`,
    [
      method,
      opts.source ?? null,
      opts.judge ?? null,
      ...(opts.perTopicMeasure === undefined ? [] : [opts.perTopicMeasure]),
    ],
  );
}

/** One value of a method's measures. */
export interface MethodMeasureValue {
  run: string;
  /** The topic, or `all` for the mean over topics. */
  topicId: string;
  measure: string;
  value: number;
  /** Topics averaged (on `all` rows). */
  topics: number | null;
}

/**
 * The values of one method's measures by one judge over one source.
 *
 * @param ws The workspace.
 * @param method The method (`keypoints`, `nuggets`, ...).
 * @param judge The judge.
 * @param source The source (key point or nugget origin).
 * @param opts `meansOnly`: only the means over topics (rows with topic `all`).
 * @returns The rows, in the table's order.
 * @example
 * ```ts
 * import { readMethodMeasures } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const rows = await readMethodMeasures(ws, "keypoints", "offline-entailment", "extracted:offline");
 * ```
 */
export async function readMethodMeasures(
  ws: WorkspaceLike,
  method: string,
  judge: string,
  source: string,
  opts: { meansOnly?: boolean } = {},
): Promise<MethodMeasureValue[]> {
  return await ws.query<MethodMeasureValue>(
    `SELECT run, topic_id, measure, value, topics FROM measures
     WHERE method = $1 ${
      opts.meansOnly ? "AND topic_id = 'all'" : ""
    } AND judge = $2 AND source = $3`,
    [method, judge, source],
  );
}
