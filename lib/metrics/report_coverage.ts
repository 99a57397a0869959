/**
 * Coverage and density of a generated text (a report) judged directly:
 * CRUX's Cov(y) and Den(y).
 *
 * @module
 */
import type { MetricRow } from "@lib/types/mod.ts";
import { type Judged, type JudgedInputs, prepareJudged } from "./judged.ts";
import { countMask } from "./_crux_topic.ts";

/** Options of {@linkcode reportCoverage}. */
export interface ReportCoverageOptions {
  /** Item id of the report judged for a topic. Default `{topic}:report`. */
  reportId?: (topicId: string) => string;
  /** Run name on the rows. Default `report`. */
  run?: string;
  /** Answerability threshold. Default 3. */
  tau?: number;
  /** Restrict A to what the oracle set answers. Default true. */
  filterByOracle?: boolean;
  /** Density exponent. Default 0.5. */
  w?: number;
}

/**
 * Scores generated texts whose ratings were judged directly (item id
 * `{topic}:report` or the given id): `Cov` = |{q in A : G(y, q) >= tau}| / |A|,
 * and, when the judgments carry a token counter, `Den` = [(Cov(y) /
 * tokens(y)) / (Cov(P*) / tokens(P*))]^w. Topics with |A| = 0 or no rated
 * report are skipped with a reason.
 *
 * @param inputs Judgments (raw or prepared); `tokens` must know the report ids for Den.
 * @param opts See {@linkcode ReportCoverageOptions}.
 * @returns Per-topic rows (`Cov`, and `Den` with tokens) and the skipped topics.
 * @example
 * ```ts
 * import { reportCoverage } from "@lib/metrics/mod.ts";
 * const judgments = [
 *   { topicId: "t", itemId: "t:0#0", ratings: [5, 0] }, // passages: both sub-questions answerable
 *   { topicId: "t", itemId: "t:0#1", ratings: [0, 4] },
 *   { topicId: "t", itemId: "t:report", ratings: [3, 1] }, // the generated report
 * ];
 * reportCoverage({ judgments }).rows; // [{ run: "report", topicId: "t", measure: "Cov", value: 0.5 }]
 * ```
 */
export function reportCoverage(
  inputs: Judged | JudgedInputs,
  opts: ReportCoverageOptions = {},
): { rows: MetricRow[]; skipped: { topicId: string; reason: string }[] } {
  const tau = opts.tau ?? 3;
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
    const covered = countMask(crux.coveredBy([id], 1, tau), mask);
    rows.push({ run, topicId, measure: "Cov", value: covered / answerable });
    if (judged.tokens) {
      const oracle = countMask(crux.coveredBy(crux.oracle, crux.oracle.length, tau), mask);
      const ratio = covered === 0
        ? 0
        : (covered / judged.tokens(id)) / (oracle / crux.oracleTokens(judged.tokens));
      rows.push({ run, topicId, measure: "Den", value: Math.pow(ratio, opts.w ?? 0.5) });
    }
  }
  return { rows, skipped };
}
