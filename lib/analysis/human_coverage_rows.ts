/**
 * Human labels of report coverage as measure rows: the coverage each label
 * gives per (topic, condition) at each threshold, and each condition's mean
 * over the topics with an answerable sub-question, for the `measure:human`
 * stage to store and the per-topic coverage view to read.
 *
 * @module
 */
import { answerMeasureName, CRUX_DEFAULTS, formatTopicSet } from "@lib/metrics/mod.ts";
import { measureRow } from "@lib/store/mod.ts";
import type { CruxData } from "./types.ts";
import type { HumanLabel } from "./human_labels.ts";
import { answerableSets } from "./_scores.ts";

/** The source of the stored human coverage rows (read by `topicCoverage`). */
const HUMAN_SOURCE = "human";

/** Options of {@linkcode humanCoverageRows}. */
export interface HumanCoverageRowsOptions {
  /** The judge the rows are stored under, naming the labels (e.g. `human-labels` for a file). */
  judge: string;
  /** Thresholds the ratings are turned into coverage at. Default [3]. */
  taus?: readonly number[];
  /** Notes: labels that give no value, conditions without a mean. */
  onNote?: (message: string) => void;
}

/**
 * Turns human labels into coverage rows (method crux, source `human`, the
 * judge naming the labels, run = the labelled condition): a coverage label as
 * given (the same at every threshold), a judgment as the share of the topic's
 * answerable sub-questions at tau (A(tau) from P* and the passage ratings)
 * rated >= tau. A judgment of a topic with no answerable sub-question, or with
 * another number of ratings than the topic has sub-questions, gives no value.
 * A condition's mean (topic `all`) is over the topics with an answerable
 * sub-question at tau, and only when each of them has a value.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param labels Human labels (see `readHumanLabels`, `humanReportLabels`).
 * @param opts `judge` (required), `taus` ([3]), `onNote`.
 * @returns The rows to store, per topic and `all`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { humanCoverageRows, loadCruxData } from "@lib/analysis/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const data = await loadCruxData(ws);
 * const rows = humanCoverageRows(data, [{ topicId: "sample-01", condition: "rag-bm25", coverage: 0.5 }], {
 *   judge: "human-labels",
 * });
 * assert.deepEqual(rows.map((r) => [r.run, r.topicId, r.measure, r.value]), [
 *   ["rag-bm25", "sample-01", "Cov", 0.5],
 * ]);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function humanCoverageRows(
  data: CruxData,
  labels: readonly HumanLabel[],
  opts: HumanCoverageRowsOptions,
): ReturnType<typeof measureRow<number>>[] {
  const rows: ReturnType<typeof measureRow<number>>[] = [];
  const row = (
    run: string,
    topicId: string,
    measure: string,
    value: number,
    set: string,
    n?: number,
  ) =>
    measureRow({
      run,
      topicId,
      measure,
      name: "Cov",
      method: "crux",
      judge: opts.judge,
      source: HUMAN_SOURCE,
      value,
      topics: n ?? null,
      topicSet: set,
    });
  const skipped: string[] = [];
  for (const tau of new Set(opts.taus ?? [CRUX_DEFAULTS.tau])) {
    const measure = answerMeasureName("Cov", tau, CRUX_DEFAULTS.w);
    const answerable = answerableSets(data, tau);
    const values = new Map<string, Map<string, number>>();
    for (const h of labels) {
      let value: number | undefined = h.coverage;
      if (value === undefined) {
        const a = new Set(answerable.get(h.topicId) ?? []);
        const qs = data.questions.get(h.topicId) ?? [];
        if (a.size === 0 || h.ratings!.length !== qs.length) {
          skipped.push(`${h.topicId} (${h.condition}, tau ${tau})`);
          continue;
        }
        value = qs.filter((q, i) => a.has(q) && h.ratings![i] >= tau).length / a.size;
      }
      let byTopic = values.get(h.condition);
      if (!byTopic) values.set(h.condition, byTopic = new Map());
      byTopic.set(h.topicId, value);
    }
    // The topic set of a mean: every topic with an answerable sub-question at tau.
    const set = [...answerable].filter(([, qs]) => qs.length).map(([t]) => t);
    for (const [condition, byTopic] of values) {
      for (const [topicId, value] of byTopic) {
        rows.push(
          row(condition, topicId, measure, value, formatTopicSet({ kind: "topic", id: topicId })),
        );
      }
      const lacking = set.filter((t) => !byTopic.has(t));
      if (lacking.length || !set.length) {
        opts.onNote?.(
          `Human labels "${opts.judge}" of "${condition}": no mean ${measure}; ${lacking.length} of the ${set.length} topics with an answerable sub-question have no label (${
            lacking.slice(0, 3).join(", ")
          }${lacking.length > 3 ? ", ..." : ""})`,
        );
        continue;
      }
      const mean = set.reduce((s, t) => s + byTopic.get(t)!, 0) / set.length;
      rows.push(
        row(
          condition,
          "all",
          measure,
          mean,
          formatTopicSet({ kind: "answerable", tau, n: set.length }),
          set.length,
        ),
      );
    }
  }
  if (skipped.length) {
    opts.onNote?.(
      `Human labels "${opts.judge}": ${skipped.length} judgments give no coverage (no answerable sub-question, or not one rating per sub-question): ${
        skipped.slice(0, 3).join(", ")
      }${skipped.length > 3 ? ", ..." : ""}`,
    );
  }
  return rows;
}
