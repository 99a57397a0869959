/**
 * Per-dataset means of stored measure rows: in a workspace whose topics come
 * from several datasets, each run mean (topic `all`) has, beside it, the mean
 * of each dataset's per-topic values (topic `all:<dataset>`), under the same
 * rule as the run mean, so a table showing one dataset reads a stored row.
 *
 * @module
 */
import { meanTopicId } from "@lib/store/mod.ts";
import { formatTopicSet, parseTopicSet } from "./topic_set.ts";

/** The fields of a measure row {@linkcode datasetMeanRows} reads and writes. */
export interface MeanableRow {
  run: string;
  topicId: string;
  measure: string;
  judge: string;
  source: string;
  value: number | null;
  topics: number | null;
  topicSet: string | null;
}

/**
 * The per-dataset means of the run means among `rows`. For every run mean
 * (topic `all`, a value stored: its topic set is complete), and every dataset
 * of the experiment, the row gains a sibling with topic `all:<dataset>`: the
 * mean of the per-topic rows of the same run, measure, judge and source whose
 * topic is in the dataset, `topics` their count, and the run mean's topic set
 * restricted to the dataset (`answerable(tau=3,n=40,dataset=multi_news)`).
 * Nothing is added when the experiment has one dataset (its mean is the run
 * mean), when a per-topic row of the run has no value or a topic of no known
 * dataset (the split is then not known), or for a dataset with no topic among
 * the rows (no mean over nothing).
 *
 * @param rows Measure rows of one stage: per-topic values and their run means.
 * @param datasetOf Dataset of every topic of the experiment.
 * @returns The added rows (copies of the run mean's row with topic, value, topics, topic set set).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { datasetMeanRows } from "@lib/metrics/mod.ts";
 * const row = (topicId: string, value: number, topics: number | null = null) => ({
 *   run: "bm25", topicId, measure: "Cov@10", judge: "j", source: "ranking", value, topics,
 *   topicSet: topics === null ? `topic(id=${topicId})` : `answerable(tau=3,n=${topics})`,
 * });
 * const added = datasetMeanRows(
 *   [row("a1", 0.5), row("a2", 1), row("b1", 0.25), row("all", 0.5833333333333334, 3)],
 *   new Map([["a1", "a"], ["a2", "a"], ["b1", "b"]]),
 * );
 * assert.deepEqual(added.map((r) => [r.topicId, r.value, r.topics, r.topicSet]), [
 *   ["all:a", 0.75, 2, "answerable(tau=3,n=2,dataset=a)"],
 *   ["all:b", 0.25, 1, "answerable(tau=3,n=1,dataset=b)"],
 * ]);
 * ```
 */
export function datasetMeanRows<R extends MeanableRow>(
  rows: readonly R[],
  datasetOf: ReadonlyMap<string, string>,
): R[] {
  const datasets = [...new Set(datasetOf.values())];
  if (datasets.length < 2) return [];
  const group = (r: MeanableRow) => [r.run, r.measure, r.judge, r.source].join("\u0000");
  const perTopic = new Map<string, R[]>();
  for (const r of rows) {
    if (meanTopicId.is(r.topicId)) continue;
    const k = group(r);
    const list = perTopic.get(k);
    if (list) list.push(r);
    else perTopic.set(k, [r]);
  }
  const out: R[] = [];
  for (const mean of rows) {
    if (mean.topicId !== "all" || mean.value === null) continue;
    const values = perTopic.get(group(mean)) ?? [];
    if (values.some((r) => r.value === null || !datasetOf.has(r.topicId))) continue;
    const set = mean.topicSet === null ? undefined : parseTopicSet(mean.topicSet);
    for (const dataset of datasets) {
      const xs = values.filter((r) => datasetOf.get(r.topicId) === dataset).map((r) => r.value!);
      if (!xs.length) continue;
      let sum = 0;
      for (const x of xs) sum += x;
      out.push({
        ...mean,
        topicId: meanTopicId.of(dataset),
        value: sum / xs.length,
        topics: xs.length,
        topicSet: set === undefined || set.kind === "topic"
          ? null
          : formatTopicSet({ ...set, n: xs.length, dataset }),
      });
    }
  }
  return out;
}
