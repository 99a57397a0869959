/**
 * Measuring judged reports: Cov(y) and Den(y) of each report from its stored
 * ratings, and Cov(Z) and Den(Z) of its retrieval context from the passage
 * ratings, per topic and as run means, stored in `measures` (method crux,
 * source `report` or `context`) under the names of `answerMeasureName`, and
 * the reports' token counts beside the Cov(y) values (`Tokens`, per topic and
 * over the topic set of each Cov(y) mean). A report with a failed or unparsed
 * rating has no value, and its run no mean.
 *
 * @module
 */
import type { Generation, MetricRow } from "@lib/types/mod.ts";
import {
  failedGenerations,
  incompleteRatingTopics,
  measureRow,
  ratingsByItem,
  readTopicDatasets,
  type WorkspaceLike,
  writeMeasures,
} from "@lib/store/mod.ts";
import {
  answerMeasureName,
  coverageScores,
  CRUX_DEFAULTS,
  datasetMeanRows,
  valueTopicSet,
} from "@lib/metrics/mod.ts";
import { reportItemId } from "./report_item_id.ts";
import { isContextJudged, type RatingMatrix, reportTargets } from "./_report_targets.ts";
import { reportRowsAt } from "./_report_rows_at.ts";
import { reportTokenRows } from "./_report_token_rows.ts";

/** Options of {@linkcode measureReports}. */
export interface MeasureReportsOptions {
  /** Name of the judge whose report ratings are read (the rows' judge). */
  judge: string;
  /** Only this generation run. Default: every run. */
  run?: string;
  /**
   * Judge whose passage ratings give A and the context scores. Default: the only
   * passage judge, else the judge of the selection's qrels, else the judge with
   * the most passage ratings (ties: `judge`); see `passageJudge`.
   */
  contextJudge?: string;
  /** Score context passages the context judge did not rate with `judge`'s ratings of them (see `rateReports`). Default false. */
  judgeUnjudged?: boolean;
  /** Answerability threshold. Default {@linkcode CRUX_DEFAULTS}.tau (3). */
  tau?: number;
  /** Density exponent. Default {@linkcode CRUX_DEFAULTS}.w (0.5). */
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
  onNote?: (message: string) => void;
}

/** Per-run result of {@linkcode measureReports}. */
export interface ReportJudgment {
  run: string;
  /** Topics with at least one answerable sub-question (averaged). */
  topics: number;
  /** Mean Cov(y) and Den(y) of the reports. */
  coverage: number;
  density: number;
  /** Mean Cov and Den of the reports' retrieval contexts (NaN for runs without contexts). */
  contextCoverage: number;
  contextDensity: number;
  /** Context passages that had no rating and counted 0. */
  unjudgedContext: number;
  /** Answerable questions rated -1 for a report. */
  unparsed: number;
  /**
   * Report ratings without a result (failed call or unparsed answer). Their
   * topics have no report value, and the run no mean of report values.
   */
  missingRatings: number;
  /** Topics left out of the report values for missing ratings. */
  missingTopics: string[];
  /** Topics whose report failed to generate (the run's mean is left out too). */
  failedReports: string[];
}

/** What {@linkcode measureReports} returns. */
export interface MeasureReportsResult {
  runs: ReportJudgment[];
  /**
   * Values per topic and `all`, named `Cov_report`, `Den_report`, `Cov_context` and
   * `Den_context` (with `(w=...)` when w is not 0.5); stored in `measures` as `Cov`
   * and `Den(w=...)` with source `report` or `context`.
   */
  metrics: MetricRow[];
  /** Rows written to `measures` (every threshold). */
  stored: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/**
 * Scores rated reports from the stored ratings (no model call): Cov(y) and
 * Den(y) of each report (density with the report's own token count against
 * P*), and of its retrieval context Cov(Z) and Den(Z) from the passage ratings
 * (passages without a rating count 0). Stores per topic and `all` in
 * `measures` (run = the generated run, method crux, this judge): `Cov` and
 * `Den(w=..)` with source `report` and `context`, names by
 * `answerMeasureName` (`Cov(tau=4)` at tau 4). A report missing a rating of
 * an answerable sub-question (failed or unparsed) has no value, and its run no
 * mean (nor has a run with a failed report or a topic not selected yet).
 *
 * @param ws The experiment workspace (after select, generate and `rateReports`).
 * @param opts `judge` (required), run filter, tau (3), w (0.5), further taus, notes.
 * @returns Per-run means, the values at tau and the number of rows stored.
 * @throws {RangeError} When no sub-question is marked answerable (run `crux construct select`).
 * @example
 * ```ts ignore
 * // Not run here: it reads a workspace after the judge stage (`crux run`).
 * import { measureReports } from "@lib/judge/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace("outputs/demo");
 * const r = await measureReports(ws, { judge: "lexical" });
 * r.runs[0].coverage; // mean Cov(y) of the first run
 * ws.close();
 * ```
 */
export async function measureReports(
  ws: WorkspaceLike,
  opts: MeasureReportsOptions,
): Promise<MeasureReportsResult> {
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const w = opts.w ?? CRUX_DEFAULTS.w;
  const t = await reportTargets(ws, {
    judge: opts.judge,
    run: opts.run,
    contextJudge: opts.contextJudge,
    tau,
    tokenizer: opts.tokenizer,
    qrelsName: opts.qrelsName,
  });
  let contextRatings: RatingMatrix = t.contextRatings;
  if (opts.judgeUnjudged) {
    // Context passages the context judge did not rate are scored with the report
    // judge's ratings of them (what `rateReports` asked for).
    const own = await ratingsByItem(ws, opts.judge);
    const merged = new Map([...contextRatings].map(([k, items]) => [k, new Map(items)]));
    for (const g of t.judged) {
      for (const pid of g.contextIds ?? []) {
        if (
          t.passage.get(pid)?.text === undefined ||
          isContextJudged(t, t.contextRatings, pid, g.topicId)
        ) continue;
        const rated = own.get(g.topicId)?.get(pid);
        if (!rated) continue;
        let items = merged.get(g.topicId);
        if (!items) merged.set(g.topicId, items = new Map());
        items.set(pid, new Map([...(t.contextRatings.get(g.topicId)?.get(pid) ?? []), ...rated]));
      }
    }
    contextRatings = merged;
  }
  // Topics the selection left out for failed passage ratings have no report value
  // yet, so no mean over the others either.
  const unselected = await incompleteRatingTopics(ws, t.contextJudge);
  const reportRatings = await ratingsByItem(ws, opts.judge);
  const den = w === CRUX_DEFAULTS.w ? "" : `(w=${w})`;
  const metrics: MetricRow[] = [];
  const runs: ReportJudgment[] = [];
  const partialRuns = new Set<string>();
  const byRun = new Map<string, Generation[]>();
  for (const g of t.judged) byRun.set(g.run, [...(byRun.get(g.run) ?? []), g]);
  for (const [run, list] of byRun) {
    const acc = {
      cov: [] as number[],
      den: [] as number[],
      ccov: [] as number[],
      cden: [] as number[],
      unjudged: 0,
      unparsed: 0,
      missingRatings: 0,
      missingTopics: [] as string[],
      noDensity: [] as string[],
    };
    const failedReports = (await failedGenerations(ws, run)).filter((topic) =>
      t.answerable.get(topic)?.length && t.oracleTokens.has(topic)
    );
    for (const g of list) {
      const qs = t.answerable.get(g.topicId)!.map((q) => q.questionId);
      const base = { answerable: qs, oracleTokens: t.oracleTokens.get(g.topicId)! };
      const ratings = reportRatings.get(g.topicId)?.get(reportItemId(g)) ??
        new Map<string, number>();
      // A report with a failed or unparsed rating has no Cov(y) or Den(y): a missing
      // rating is not a 0.
      const unrated = qs.filter((q) => !((ratings.get(q) ?? -1) >= 0));
      const oracleMissing = t.missingText.get(g.topicId);
      if (unrated.length) {
        acc.unparsed += unrated.filter((q) => ratings.get(q) === -1).length;
        acc.missingRatings += unrated.length;
        acc.missingTopics.push(g.topicId);
      } else {
        const s = coverageScores({ ...base, ratings, tokens: g.tokens ?? 0 }, { tau, w });
        acc.cov.push(s.coverage!);
        metrics.push({ run, topicId: g.topicId, measure: "Cov_report", value: s.coverage! });
        if (g.tokens == null) {
          // No stored token count: its density is not measured (never a length of 0).
          acc.noDensity.push(`${g.topicId} (the report has no token count)`);
        } else if (oracleMissing === undefined) {
          acc.den.push(s.density!);
          metrics.push({
            run,
            topicId: g.topicId,
            measure: `Den_report${den}`,
            value: s.density!,
          });
        } else acc.noDensity.push(`${g.topicId} (passage "${oracleMissing}" of P*)`);
      }
      const ctx = g.contextIds ?? [];
      if (!ctx.length) continue;
      const best = new Map<string, number>();
      let tokens = 0;
      let lacking = oracleMissing;
      for (const pid of ctx) {
        const p = t.passage.get(pid);
        if (p) tokens += p.tokens;
        else lacking ??= pid;
        if (!isContextJudged(t, contextRatings, pid, g.topicId)) acc.unjudged++;
        for (const q of qs) {
          const r = contextRatings.get(g.topicId)?.get(pid)?.get(q) ?? 0;
          best.set(q, Math.max(best.get(q) ?? 0, r));
        }
      }
      const c = coverageScores({ ...base, ratings: best, tokens }, { tau, w });
      acc.ccov.push(c.coverage!);
      metrics.push({ run, topicId: g.topicId, measure: "Cov_context", value: c.coverage! });
      if (lacking === undefined) {
        acc.cden.push(c.density!);
        metrics.push({ run, topicId: g.topicId, measure: `Den_context${den}`, value: c.density! });
      } else if (lacking !== oracleMissing) {
        acc.noDensity.push(`${g.topicId} (context passage "${lacking}")`);
      }
    }
    const r: ReportJudgment = {
      run,
      topics: acc.cov.length,
      coverage: mean(acc.cov),
      density: mean(acc.den),
      contextCoverage: mean(acc.ccov),
      contextDensity: mean(acc.cden),
      unjudgedContext: acc.unjudged,
      unparsed: acc.unparsed,
      missingRatings: acc.missingRatings,
      missingTopics: acc.missingTopics,
      failedReports,
    };
    runs.push(r);
    // The run's mean of report values exists only when every report has all its
    // ratings: a mean over the topics that happen to have them is another number.
    const partial = acc.missingTopics.length > 0 || failedReports.length > 0 ||
      unselected.length > 0;
    if (partial) {
      partialRuns.add(run);
      r.coverage = NaN;
      r.density = NaN;
      opts.onNote?.(
        `Run "${run}": no mean Cov or Den of its reports` +
          (acc.missingTopics.length
            ? `; ${acc.missingRatings} ratings failed or unparsed in ${acc.missingTopics.length} topics (${
              acc.missingTopics.slice(0, 3).join(", ")
            }${acc.missingTopics.length > 3 ? ", ..." : ""}), which have no value`
            : "") +
          (failedReports.length
            ? `; ${failedReports.length} reports failed to generate (${
              failedReports.slice(0, 3).join(", ")
            }${failedReports.length > 3 ? ", ..." : ""})`
            : "") +
          (unselected.length
            ? `; ${unselected.length} topics are not selected yet (failed passage ratings)`
            : "") +
          "; re-run to retry them",
      );
    }
    if (r.topics && !partial) {
      metrics.push({ run, topicId: "all", measure: "Cov_report", value: r.coverage });
    }
    // Den's mean, too, only over every topic of the run (none left without a token count).
    if (acc.den.length && !partial && acc.den.length === acc.cov.length) {
      metrics.push({ run, topicId: "all", measure: `Den_report${den}`, value: r.density });
    }
    // The contexts' means too: a topic whose report failed, or whose passage
    // ratings are incomplete, has no context value, and a mean without it is another number.
    const partialContexts = failedReports.length > 0 || unselected.length > 0;
    if (partialContexts) {
      r.contextCoverage = NaN;
      r.contextDensity = NaN;
    }
    if (acc.ccov.length && !partialContexts) {
      metrics.push({ run, topicId: "all", measure: "Cov_context", value: r.contextCoverage });
    }
    if (acc.cden.length && !partialContexts) {
      metrics.push({ run, topicId: "all", measure: `Den_context${den}`, value: r.contextDensity });
    }
    if (acc.noDensity.length) {
      opts.onNote?.(
        `Run "${run}": density left out for ${acc.noDensity.length} topics lacking a token count (a passage without text, or a report without a count): ${
          acc.noDensity.slice(0, 3).join(", ")
        }${acc.noDensity.length > 3 ? ", ..." : ""}`,
      );
    }
    if (acc.unjudged) {
      opts.onNote?.(
        `Run "${run}": ${acc.unjudged} context passages had no rating and counted 0 (rate them with: crux judge reports --workspace DIR --run ${run} --judge-unjudged)`,
      );
    }
  }
  // Every value goes to the measure table under the generation run's name: the
  // reports' Cov and Den (method crux, source report), so every method's
  // answer-level scores meet there under the same run names, and the Cov and Den
  // of the contexts the reports were written from (source context).
  // Stored names carry the judge's own tau (`Cov(tau=4)`), never a default's meaning.
  const covName = answerMeasureName("Cov", tau, w);
  const denName = answerMeasureName("Den", tau, w);
  const stored = new Map<string, { measure: string; source: string }>([
    ["Cov_report", { measure: covName, source: "report" }],
    [`Den_report${den}`, { measure: denName, source: "report" }],
    ["Cov_context", { measure: covName, source: "context" }],
    [`Den_context${den}`, { measure: denName, source: "context" }],
  ]);
  const perTopic = new Map<string, number>();
  for (const m of metrics) {
    if (m.topicId !== "all") {
      perTopic.set(`${m.run}\t${m.measure}`, (perTopic.get(`${m.run}\t${m.measure}`) ?? 0) + 1);
    }
  }
  const measureRows = metrics.map((m) => {
    const { measure, source } = stored.get(m.measure)!;
    const topics = m.topicId === "all" ? perTopic.get(`${m.run}\t${m.measure}`) ?? 0 : null;
    return measureRow({
      run: m.run,
      topicId: m.topicId,
      measure,
      name: measure.startsWith("Den") ? "Den" : "Cov",
      method: "crux",
      judge: opts.judge,
      source,
      value: m.value,
      topics,
      topicSet: valueTopicSet({ measure, topicId: m.topicId, topics, tau }),
    });
  });
  for (const x of new Set(opts.taus ?? [])) {
    if (x === tau) continue;
    measureRows.push(
      ...reportRowsAt(x, {
        judged: t.judged,
        questions: t.questions,
        oracle: t.oracle,
        contextRatings,
        reportRatings,
        oracleTokens: t.oracleTokens,
        missingText: t.missingText,
        partialRuns,
        w,
        judge: opts.judge,
      }),
    );
  }
  // The reports' lengths over the topics of each Cov(y) value and mean.
  measureRows.push(...reportTokenRows(measureRows, t.judged, opts.judge, opts.onNote));
  // Beside each run mean, each dataset's mean when the experiment holds several.
  measureRows.push(...datasetMeanRows(measureRows, await readTopicDatasets(ws)));
  await writeMeasures(ws, measureRows);
  return { runs, metrics, stored: measureRows.length };
}
