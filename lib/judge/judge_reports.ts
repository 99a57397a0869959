/**
 * Report judging in one call: rates each generated report against its topic's
 * answerable sub-questions ({@linkcode rateReports}), then scores the stored
 * ratings ({@linkcode measureReports}), storing Cov and Den of the reports and
 * of their contexts in `measures`. The pipeline runs the two as separate
 * stages (a judge stage and a measure stage).
 *
 * @module
 */
import type { AnswerabilityJudge, ProgressFn } from "@lib/llm/mod.ts";
import type { MetricRow } from "@lib/types/mod.ts";
import type { WorkspaceLike } from "@lib/store/mod.ts";
import { rateReports } from "./rate_reports.ts";
import { measureReports, type ReportJudgment } from "./measure_reports.ts";

/** Options of {@link judgeReports}. */
export interface JudgeReportsOptions {
  /** Judge of the reports (and of unjudged context passages with `judgeUnjudged`). */
  judge: AnswerabilityJudge;
  /** Only this generation run. Default: every run in `generations`. */
  run?: string;
  /**
   * Judge whose passage ratings give the context scores. Default: the only passage
   * judge, else the judge of the selection's qrels, else the judge with the most
   * passage ratings (ties: `judge`); see `passageJudge`.
   */
  contextJudge?: string;
  /** Rate context passages without a rating (e.g. of other topics) online instead of counting them 0. Default false. */
  judgeUnjudged?: boolean;
  /** Answerability threshold. Default 3 (`CRUX_DEFAULTS.tau`). */
  tau?: number;
  /** Density exponent. Default 0.5 (`CRUX_DEFAULTS.w`). */
  w?: number;
  /**
   * Further thresholds the reports are scored at (the analyses' threshold and
   * comparison taus), stored as `Cov(tau=X)` and `Den(tau=X,w=...)` with source
   * `report`, with the same rules as the values at `tau`. Default: none.
   */
  taus?: readonly number[];
  /** Tokenizer for passages stored without a token count. Default `llama3.1`. */
  tokenizer?: "llama3.1" | "whitespace";
  /** Passage qrels defining P*. Default `crux_pr`. */
  qrelsName?: string;
  onProgress?: ProgressFn;
  onNote?: (message: string) => void;
  signal?: AbortSignal;
}

/** What {@link judgeReports} returns. */
export interface JudgeReportsResult {
  runs: ReportJudgment[];
  /**
   * Values per topic and `all`, named `Cov_report`, `Den_report`, `Cov_context` and
   * `Den_context` (with `(w=...)` when w is not 0.5); stored in `measures` as `Cov`
   * and `Den(w=...)` with source `report` or `context`.
   */
  metrics: MetricRow[];
  /** New report ratings stored, and failed calls (not stored; re-run to retry). */
  written: number;
  failed: number;
  /** Answers stored as -1 because they had no rating (asked again on a re-run). */
  unparsed: number;
  /** Report ratings asked for (new, failed and unparsed ones; not those already stored). */
  asked: number;
}

/**
 * Judges generated reports against every answerable sub-question of their topic
 * with the same answerability protocol and cache as construction (item id
 * `{topic}:report:{run}`), then scores each report: Cov(y) and Den(y) (density
 * with the report's own token count against P*), and its retrieval context:
 * Cov(Z) and Den(Z) from the pre-judged passage matrix (no new calls; passages
 * without a rating count 0, or are judged online with `judgeUnjudged`). Stores
 * per topic and `all` in the measure table `measures` (run = the generated run,
 * method crux, this judge): `Cov` and `Den(w=..)` with source `report` for the
 * reports and source `context` for their contexts.
 *
 * @param ws The experiment workspace (after select and generate).
 * @param opts `judge` (required), run filter, tau (3), w (0.5), callbacks.
 * @returns Per-run means, the values stored and call counts.
 * @throws {RangeError} When no sub-question is marked answerable (run `crux construct select`).
 * @example
 * ```ts ignore
 * // Not run here: it reads a workspace after the select and generate stages (`crux run`).
 * import { judgeReports } from "@lib/judge/mod.ts";
 * import { lexicalJudge } from "@lib/llm/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace("outputs/demo");
 * const r = await judgeReports(ws, { judge: lexicalJudge() });
 * r.runs[0].coverage; // mean Cov(y) of the first run
 * ws.close();
 * ```
 */
export async function judgeReports(
  ws: WorkspaceLike,
  opts: JudgeReportsOptions,
): Promise<JudgeReportsResult> {
  const rated = await rateReports(ws, opts);
  const { runs, metrics } = await measureReports(ws, { ...opts, judge: opts.judge.name });
  return { runs, metrics, ...rated };
}
