/**
 * Coverage and density of a generated text (a report) judged directly:
 * CRUX's Cov(y) and Den(y).
 *
 * @module
 */
import type { MetricRow } from "@lib/types/mod.ts";
import { type Judged, type JudgedInputs, prepareJudged } from "./judged.ts";
import { countMask } from "./_crux_topic.ts";
import { CRUX_DEFAULTS } from "./crux_defaults.ts";
import { coverageScores } from "./coverage_scores.ts";

/** Options of {@linkcode reportCoverage}. */
export interface ReportCoverageOptions {
  /** Item id of the report judged for a topic. Default `{topic}:report`. */
  reportId?: (topicId: string) => string;
  /** Run name on the rows. Default `report`. */
  run?: string;
  /** Answerability threshold. Default {@linkcode CRUX_DEFAULTS}.tau (3). */
  tau?: number;
  /** Restrict A to what the oracle set answers. Default true. */
  filterByOracle?: boolean;
  /** Density exponent. Default {@linkcode CRUX_DEFAULTS}.w (0.5). */
  w?: number;
}

/**
 * Scores generated texts whose ratings were judged directly (item id
 * `{topic}:report` or the given id): `Cov` = |{q in A : G(y, q) >= tau}| / |A|,
 * and, when the judgments carry a token counter, `Den` = [(Cov(y) /
 * tokens(y)) / (Cov(P*) / tokens(P*))]^w. Topics with |A| = 0 or no rated
 * report are skipped with a reason; Den is left out of a topic whose P* has no
 * tokens or covers nothing. Both come from {@linkcode coverageScores}.
 *
 * @param inputs Judgments (raw or prepared); `tokens` must know the report ids for Den.
 * @param opts See {@linkcode ReportCoverageOptions}.
 * @returns Per-topic rows (`Cov`, and `Den` with tokens) and the skipped topics.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportCoverage } from "@lib/metrics/mod.ts";
 * const judgments = [
 *   { topicId: "t", itemId: "t:0#0", ratings: [5, 0] }, // passages: both sub-questions answerable
 *   { topicId: "t", itemId: "t:0#1", ratings: [0, 4] },
 *   { topicId: "t", itemId: "t:report", ratings: [3, 1] }, // the generated report
 * ];
 * assert.deepEqual(reportCoverage({ judgments }).rows, [{ run: "report", topicId: "t", measure: "Cov", value: 0.5 }]);
 * ```
 */
export function reportCoverage(
  inputs: Judged | JudgedInputs,
  opts: ReportCoverageOptions = {},
): { rows: MetricRow[]; skipped: { topicId: string; reason: string }[] } {
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const filter = opts.filterByOracle ?? true;
  const judged = "kind" in inputs && inputs.kind === "judged"
    ? inputs as Judged
    : prepareJudged(inputs as JudgedInputs, { tau });
  const run = opts.run ?? "report";
  const rows: MetricRow[] = [];
  const skipped: { topicId: string; reason: string }[] = [];
  for (const topicId of judged.topicIds) {
    const crux = judged.topics.get(topicId)?.crux;
    if (!crux) continue;
    const id = opts.reportId?.(topicId) ?? `${topicId}:report`;
    if (!crux.ratings.has(id)) {
      skipped.push({ topicId, reason: `no ratings for report "${id}"` });
      continue;
    }
    const mask = crux.answerable(tau, filter);
    const answerable = countMask(mask);
    if (!answerable) {
      skipped.push({ topicId, reason: "no answerable sub-question (|A| = 0)" });
      continue;
    }
    const questions = [...mask.keys()].filter((q) => mask[q]).map(String);
    const ratings = new Map([...crux.ratings.get(id)!].map((r, q) => [String(q), r]));
    const oracle = countMask(crux.coveredBy(crux.oracle, crux.oracle.length, tau), mask);
    const oracleTokens = judged.tokens ? crux.oracleTokens(judged.tokens) : 0;
    const withDensity = judged.tokens !== undefined && oracleTokens > 0 && oracle > 0;
    const s = coverageScores({
      ratings,
      answerable: questions,
      tokens: withDensity ? judged.tokens!(id) : 0,
      oracleTokens: withDensity ? oracleTokens : 1,
      oracleCoverage: oracle / answerable,
    }, { tau, w: opts.w });
    rows.push({ run, topicId, measure: "Cov", value: s.coverage! });
    if (withDensity) rows.push({ run, topicId, measure: "Den", value: s.density! });
  }
  return { rows, skipped };
}
