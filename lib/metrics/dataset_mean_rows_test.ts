import assert from "node:assert/strict";
import { datasetMeanRows, type MeanableRow } from "./dataset_mean_rows.ts";

const row = (
  topicId: string,
  value: number | null,
  extra: Partial<MeanableRow> = {},
): MeanableRow => ({
  run: "bm25",
  topicId,
  measure: "Cov@10",
  judge: "j",
  source: "ranking(tau=3)",
  value,
  topics: null,
  topicSet: `topic(id=${topicId})`,
  ...extra,
});
const mean = (value: number, topics: number, extra: Partial<MeanableRow> = {}) =>
  row("all", value, { topics, topicSet: `answerable(tau=3,n=${topics})`, ...extra });
const datasets = new Map([["m1", "multi_news"], ["m2", "multi_news"], ["m3", "multi_news"], [
  "d1",
  "duc04",
]]);

Deno.test("each dataset's mean is the mean of its own topics' values, under the run mean's rule", () => {
  const rows = [
    row("m1", 0.5),
    row("m2", 0.25),
    row("m3", 1),
    row("d1", 0.2),
    mean((0.5 + 0.25 + 1 + 0.2) / 4, 4),
    // Another measure of the same run: its own means.
    row("m1", 1, { measure: "P@10" }),
    row("d1", 0, { measure: "P@10" }),
    mean(0.5, 2, { measure: "P@10", topicSet: "judged(n=2)" }),
  ];
  const added = datasetMeanRows(rows, datasets);
  assert.deepEqual(
    added.map((r) => [r.measure, r.topicId, r.value, r.topics, r.topicSet]),
    [
      [
        "Cov@10",
        "all:multi_news",
        (0.5 + 0.25 + 1) / 3,
        3,
        "answerable(tau=3,n=3,dataset=multi_news)",
      ],
      ["Cov@10", "all:duc04", 0.2, 1, "answerable(tau=3,n=1,dataset=duc04)"],
      ["P@10", "all:multi_news", 1, 1, "judged(n=1,dataset=multi_news)"],
      ["P@10", "all:duc04", 0, 1, "judged(n=1,dataset=duc04)"],
    ],
  );
  // The rest of the row is the run mean's.
  assert.deepEqual(
    added.map((r) => [r.run, r.judge, r.source]),
    Array(4).fill(["bm25", "j", "ranking(tau=3)"]),
  );
});

Deno.test("no dataset mean where the run mean is absent, the split unknown, or one dataset", () => {
  // A run without a mean (its topic set is incomplete): no dataset mean either.
  assert.deepEqual(datasetMeanRows([row("m1", 0.5), row("d1", 0.2)], datasets), []);
  // A per-topic value missing (null), or a topic of no known dataset: the split is not known.
  assert.deepEqual(datasetMeanRows([row("m1", null), row("d1", 0.2), mean(0.2, 1)], datasets), []);
  assert.deepEqual(datasetMeanRows([row("x9", 0.5), row("d1", 0.2), mean(0.35, 2)], datasets), []);
  // One dataset: its mean is the run mean; nothing added.
  assert.deepEqual(
    datasetMeanRows([row("m1", 0.5), mean(0.5, 1)], new Map([["m1", "multi_news"]])),
    [],
  );
  // A dataset without a topic in the run: no mean over nothing; rows already per dataset are skipped.
  const added = datasetMeanRows(
    [row("m1", 0.5), mean(0.5, 1), row("all:multi_news", 0.5, { topics: 1 })],
    datasets,
  );
  assert.deepEqual(added.map((r) => [r.topicId, r.value]), [["all:multi_news", 0.5]]);
  // A run mean stating no topic set gives dataset means stating none.
  assert.deepEqual(
    datasetMeanRows([row("m1", 0.5), row("d1", 1), mean(0.75, 2, { topicSet: null })], datasets)
      .map((r) => r.topicSet),
    [null, null],
  );
});
