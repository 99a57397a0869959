// Report judging: rates each generated report against its topic's answerable sub-questions and
// stores Cov and Den of the reports and of their contexts in the measure table.

import type { AnswerabilityJudge, ProgressFn } from "@lib/llm/mod.ts";
import type { Generation, MetricRow } from "@lib/types/mod.ts";
import {
  failedGenerations,
  incompleteRatingTopics,
  measureRow,
  passageJudge,
  ratingsByItem,
  readGenerationsByRun,
  readPassages,
  readRatingCounts,
  readWorkspaceQrels,
  readWorkspaceSubquestions,
  type WorkspaceLike,
  writeMeasures,
} from "@lib/store/mod.ts";
import {
  answerableQuestions,
  answerMeasureName,
  coverageScores,
  CRUX_DEFAULTS,
  oracleSets,
  oracleTokens as sumOracleTokens,
  valueTopicSet,
} from "@lib/metrics/mod.ts";
import { rateItems, type RatingItem } from "./rate_items.ts";
import { countTokens } from "@lib/text/mod.ts";

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
  onProgress?: ProgressFn;
  onNote?: (message: string) => void;
  signal?: AbortSignal;
}

/** Per-run result of {@link judgeReports}. */
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

/** Item id a report is judged under: `{topic}:report` for the human summary, `{topic}:report:{run}` otherwise. */
export const reportItemId = (g: Pick<Generation, "run" | "topicId">): string =>
  g.run === "oracle-result" ? `${g.topicId}:report` : `${g.topicId}:report:${g.run}`;

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

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
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const w = opts.w ?? CRUX_DEFAULTS.w;
  const gens = await readGenerationsByRun(ws, opts.run);
  // The context judge by the one rule of passage judges: the only one, else the judge of
  // the selection (extra ratings of unjudged passages by the report judge never replace
  // it), else, where no selection recorded its judge (imported qrels), the judge with the
  // most passage ratings (the construction matrix; ties: the report judge).
  const counts = new Map(
    (await readRatingCounts(ws)).filter((c) => c.itemKind === "passage").map((c) => [c.judge, c.n]),
  );
  const most = Math.max(0, ...counts.values());
  const top = [...counts].filter(([, n]) => n === most).map(([j]) => j).sort();
  const contextJudge = await passageJudge(ws, "score the contexts of reports", opts.contextJudge, {
    prefer: top.includes(opts.judge.name) ? opts.judge.name : top[0],
  });
  let contextRatings = await ratingsByItem(ws, contextJudge);
  const questions = await readWorkspaceSubquestions(ws);
  const qrels = await readWorkspaceQrels(ws, opts.qrelsName ?? "crux_pr");
  const oracle = oracleSets(qrels);
  // A: the sub-questions P* answers at tau under the context judge's ratings (one
  // definition with the evaluator and the analyses).
  const answerable = new Map<string, { questionId: string; text: string }[]>();
  for (const [t, qs] of questions) {
    const rows = (oracle.get(t) ?? []).map((p) => {
      const r = contextRatings.get(t)?.get(p);
      return r && qs.map((q) => r.get(q.questionId) ?? 0);
    });
    const mask = answerableQuestions(rows, qs.length, { tau });
    answerable.set(t, qs.filter((_, k) => mask[k]));
  }
  if (![...answerable.values()].some((qs) => qs.length)) {
    throw new RangeError(
      "Cannot judge reports: no sub-question is marked answerable; run `crux construct select` first",
    );
  }
  const passages = await readPassages(ws);
  const passage = new Map(
    [...passages.values()].flat().map((p) => [
      p.passageId,
      { ...p, tokens: p.tokens ?? countTokens(p.text, { tokenizer: opts.tokenizer }) },
    ]),
  );
  const oracleTokens = new Map<string, number>();
  // Density needs the text of P* and of every context passage: a passage the
  // workspace lacks leaves that topic's density out (counted and told), never 0.
  const missingText = new Map<string, string>();
  for (const [topicId, ids] of oracle) {
    const sum = sumOracleTokens(ids, (id) => passage.get(id)?.tokens);
    if (sum.missing !== undefined) missingText.set(topicId, sum.missing);
    oracleTokens.set(topicId, sum.tokens);
  }
  const judged = gens.filter((g) =>
    answerable.get(g.topicId)?.length && oracleTokens.has(g.topicId)
  );
  const items: RatingItem[] = judged.map((g) => ({
    topicId: g.topicId,
    itemId: reportItemId(g),
    text: g.text,
    questions: answerable.get(g.topicId)!,
  }));
  const rated = await rateItems(ws, items, {
    judge: opts.judge,
    onProgress: opts.onProgress,
    signal: opts.signal,
  });
  if (rated.failed) {
    opts.onNote?.(`${rated.failed} report ratings failed after retries; re-run to retry them`);
  }

  const isJudged = (pid: string, topicId: string) =>
    answerable.get(topicId)!.some((q) => contextRatings.get(topicId)?.get(pid)?.has(q.questionId));
  if (opts.judgeUnjudged) {
    const extra: RatingItem[] = [];
    const seen = new Set<string>();
    for (const g of judged) {
      for (const pid of g.contextIds ?? []) {
        const key = `${g.topicId}\u0000${pid}`;
        const text = passage.get(pid)?.text;
        if (seen.has(key) || text === undefined || isJudged(pid, g.topicId)) continue;
        seen.add(key);
        extra.push({
          topicId: g.topicId,
          itemId: pid,
          text,
          questions: answerable.get(g.topicId)!,
        });
      }
    }
    if (extra.length) {
      const r = await rateItems(ws, extra, {
        judge: opts.judge,
        onProgress: opts.onProgress,
        signal: opts.signal,
      });
      rated.failed += r.failed;
      rated.unparsed += r.unparsed;
      rated.written += r.written;
      const online = await ratingsByItem(ws, opts.judge.name);
      const merged = new Map([...contextRatings].map(([t, items]) => [t, new Map(items)]));
      for (const e of extra) {
        const rated = online.get(e.topicId)?.get(e.itemId);
        if (!rated) continue;
        let items = merged.get(e.topicId);
        if (!items) merged.set(e.topicId, items = new Map());
        items.set(e.itemId, new Map([...(items.get(e.itemId) ?? []), ...rated]));
      }
      contextRatings = merged;
    }
  }
  const reportRatings = await ratingsByItem(ws, opts.judge.name);
  const den = w === CRUX_DEFAULTS.w ? "" : `(w=${w})`;
  const metrics: MetricRow[] = [];
  const runs: ReportJudgment[] = [];
  const partialRuns = new Set<string>();
  const byRun = new Map<string, Generation[]>();
  for (const g of judged) byRun.set(g.run, [...(byRun.get(g.run) ?? []), g]);
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
    const failedReports = (await failedGenerations(ws, run)).filter((t) =>
      answerable.get(t)?.length && oracleTokens.has(t)
    );
    // Topics the selection left out for failed passage ratings have no report value
    // yet, so no mean over the others either.
    const unselected = await incompleteRatingTopics(ws, contextJudge);
    for (const g of list) {
      const qs = answerable.get(g.topicId)!.map((q) => q.questionId);
      const base = { answerable: qs, oracleTokens: oracleTokens.get(g.topicId)! };
      const ratings = reportRatings.get(g.topicId)?.get(reportItemId(g)) ??
        new Map<string, number>();
      // A report with a failed or unparsed rating has no Cov(y) or Den(y): a missing
      // rating is not a 0.
      const unrated = qs.filter((q) => !((ratings.get(q) ?? -1) >= 0));
      const oracleMissing = missingText.get(g.topicId);
      if (unrated.length) {
        acc.unparsed += unrated.filter((q) => ratings.get(q) === -1).length;
        acc.missingRatings += unrated.length;
        acc.missingTopics.push(g.topicId);
      } else {
        const s = coverageScores({ ...base, ratings, tokens: g.tokens ?? 0 }, { tau, w });
        acc.cov.push(s.coverage!);
        metrics.push({ run, topicId: g.topicId, measure: "Cov_report", value: s.coverage! });
        if (oracleMissing === undefined) {
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
        const p = passage.get(pid);
        if (p) tokens += p.tokens;
        else lacking ??= pid;
        if (!isJudged(pid, g.topicId)) acc.unjudged++;
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
    if (acc.den.length && !partial) {
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
        `Run "${run}": density left out for ${acc.noDensity.length} topics whose passages have no text in the workspace: ${
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
      judge: opts.judge.name,
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
        judged,
        questions,
        oracle,
        contextRatings,
        reportRatings,
        oracleTokens,
        missingText,
        partialRuns,
        w,
        judge: opts.judge.name,
      }),
    );
  }
  await writeMeasures(ws, measureRows);
  return {
    runs,
    metrics,
    written: rated.written,
    failed: rated.failed,
    unparsed: rated.unparsed,
    asked: rated.written + rated.failed,
  };
}

/**
 * Cov(y) and Den(y) of the judged reports at another threshold `x`: A(x) from P*
 * by the context judge's ratings; a report missing a rating of A(x) has no value;
 * a run's mean only where it has one at the judge's own threshold too.
 */
function reportRowsAt(
  x: number,
  c: {
    judged: readonly Generation[];
    questions: ReadonlyMap<string, readonly { questionId: string }[]>;
    oracle: ReadonlyMap<string, readonly string[]>;
    /** Topic -> item -> question -> rating. */
    contextRatings: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, number>>>;
    /** Topic -> item -> question -> rating. */
    reportRatings: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, number>>>;
    oracleTokens: ReadonlyMap<string, number>;
    missingText: ReadonlyMap<string, string>;
    partialRuns: ReadonlySet<string>;
    w: number;
    judge: string;
  },
) {
  const cov = answerMeasureName("Cov", x, c.w);
  const den = answerMeasureName("Den", x, c.w);
  const answerable = new Map<string, string[]>();
  for (const [t, qs] of c.questions) {
    const rows = (c.oracle.get(t) ?? []).map((p) => {
      const r = c.contextRatings.get(t)?.get(p);
      return r && qs.map((q) => r.get(q.questionId) ?? 0);
    });
    const mask = answerableQuestions(rows, qs.length, { tau: x });
    answerable.set(t, qs.filter((_, k) => mask[k]).map((q) => q.questionId));
  }
  const values = new Map<string, { topicId: string; measure: string; value: number }[]>();
  const incomplete = new Set<string>();
  for (const g of c.judged) {
    const qs = answerable.get(g.topicId) ?? [];
    if (!qs.length) continue;
    const ratings = c.reportRatings.get(g.topicId)?.get(reportItemId(g)) ??
      new Map<string, number>();
    if (qs.some((q) => !((ratings.get(q) ?? -1) >= 0))) {
      incomplete.add(g.run);
      continue;
    }
    const s = coverageScores(
      {
        ratings,
        answerable: qs,
        tokens: g.tokens ?? 0,
        oracleTokens: c.oracleTokens.get(g.topicId)!,
      },
      { tau: x, w: c.w },
    );
    const list = values.get(g.run) ?? [];
    values.set(g.run, list);
    list.push({ topicId: g.topicId, measure: cov, value: s.coverage! });
    if (!c.missingText.has(g.topicId)) {
      list.push({ topicId: g.topicId, measure: den, value: s.density! });
    }
  }
  const rows = [];
  for (const [run, list] of values) {
    for (const measure of [cov, den]) {
      const xs = list.filter((v) => v.measure === measure);
      for (const v of xs) rows.push({ run, ...v, topics: null });
      if (xs.length && !c.partialRuns.has(run) && !incomplete.has(run)) {
        const value = xs.reduce((a, v) => a + v.value, 0) / xs.length;
        rows.push({ run, topicId: "all", measure, value, topics: xs.length });
      }
    }
  }
  return rows.map((r) =>
    measureRow({
      ...r,
      name: r.measure.startsWith("Den") ? "Den" : "Cov",
      method: "crux",
      judge: c.judge,
      source: "report",
      topicSet: valueTopicSet({ ...r, tau: x }),
    })
  );
}
