/**
 * Tables are views of the measure table on release-shaped experiments run by
 * `crux run`: the 50-topic release fixture (the golden CRUX topics repeated)
 * and the generated release whose ratings are aligned to a run that ranks
 * other topics' passages. Every numeric cell of every saved table is the
 * stored row its cell key names, or a statistic of stored rows; a stored row
 * shown in two tables has one value.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { runCommand } from "@lib/cli/commands/run.ts";
import { type CellsChecked, checkCells, parseCsv } from "../support/check_cells.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { writeReleaseFixture } from "../support/release_fixture.ts";
import {
  alignedReleaseExperiment,
  writeAlignedRelease,
} from "../support/aligned_release_fixture.ts";

/** `crux run --config FILE`, then the check of its tables. */
async function runAndCheck(config: string, workspace: string): Promise<CellsChecked> {
  const io = memoryIo();
  const code = await main(["run", "--config", config], io, [runCommand]);
  assert.equal(code, 0, io.stderr());
  return await checkCells(workspace);
}

/**
 * The runs whose four nugget scores and failed label count `nugget_scores`
 * shows from their stored rows (the cells showing a `nuggets` measure of
 * `created:offline`).
 */
async function nuggetScoreRuns(outDir: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(outDir, "tables", "nugget_scores.cells.jsonl"));
  // The cells showing a score (not a mean's topic count).
  const keys = text.trim().split("\n").map((l) => JSON.parse(l)).filter((c) => c.key && !c.shows)
    .map((c) => c.key);
  const runs = [...new Set(keys.map((k) => k.run as string))].sort();
  for (const run of runs) {
    const measures = keys.filter((k) => k.run === run && k.source === "created:offline")
      .map((k) => k.measure).sort();
    assert.deepEqual(
      measures,
      ["all", "nugget_labels_failed", "strict_all", "strict_vital", "vital"],
      run,
    );
  }
  return runs;
}

/**
 * The nugget agreement of an experiment whose direct reports are all empty:
 * direct is left out of the table, the figure's points and the stored
 * statistics' inputs, and named in the notes and the subtitle; a blank
 * correlation (constant measure) has its reason and the figure no fit line.
 *
 * @returns The tau cell's line.
 */
async function checkAgreement(outDir: string, reports: number) {
  const csv = await Deno.readTextFile(join(outDir, "tables", "nugget_agreement.csv"));
  const named = `direct left out: all ${reports} reports empty`;
  assert.ok(csv.includes(`# ${named}\n`), csv);
  const [row] = parseCsv(csv).slice(1);
  const cells = (await Deno.readTextFile(join(outDir, "tables", "nugget_agreement.cells.jsonl")))
    .trim().split("\n").map((l) => JSON.parse(l));
  const spec = await Deno.readTextFile(join(outDir, "figures", "nugget_agreement.vl.json"));
  const points = JSON.parse(spec).data.values.map((v: { run: string }) => v.run);
  assert.ok(!points.includes("direct"), points.join(", "));
  assert.equal(row[3], String(points.length), "runs counted are the runs drawn");
  assert.ok(spec.replaceAll("\\n", " ").includes("direct left out"), "named in the subtitle");
  const tau = cells.find((c) => c.column === "tau");
  for (const c of cells.filter((c) => c.column !== "runs")) {
    assert.ok(!JSON.stringify(c.inputs ?? []).includes('"direct"'), "direct is no input");
    if (c.reason) assert.match(c.reason, /^undefined: the (first|second) vector is constant/);
    else assert.ok(c.statistic, "a shown correlation is a stored statistic");
  }
  // A line only over a defined correlation.
  assert.equal(spec.includes('"regression"'), tau.reason === undefined);
  return tau;
}

/**
 * The main table of a two-dataset experiment shows each dataset's stored mean
 * (topic `all:<dataset>`), and each equals the mean of that dataset's stored
 * per-topic values, computed here by hand from the workspace.
 *
 * @returns The number of per-dataset cells checked, by dataset.
 */
async function checkDatasetMeans(outDir: string): Promise<Record<string, number>> {
  const cells = (await Deno.readTextFile(join(outDir, "tables", "main_table.cells.jsonl")))
    .trim().split("\n").map((l) => JSON.parse(l)).filter((c) => c.key);
  const counts: Record<string, number> = {};
  const ws = await openWorkspace(outDir, { readOnly: true });
  try {
    for (const c of cells) {
      const dataset = /^all:(.+)$/.exec(c.key.topicId)?.[1];
      assert.ok(dataset, `${c.row} / ${c.column}: a per-dataset mean, not ${c.key.topicId}`);
      assert.ok(c.column.startsWith(`${dataset}:`), `${c.column} is a column of ${dataset}`);
      const [stored] = await ws.query<{ value: number; topics: number; topicSet: string }>(
        `SELECT value, topics, topic_set FROM measures WHERE run = $1 AND source = $2
           AND judge = $3 AND measure = $4 AND topic_id = $5`,
        [c.key.run, c.key.source, c.key.judge, c.key.measure, c.key.topicId],
      );
      const perTopic = await ws.query<{ value: number }>(
        `SELECT m.value FROM measures m JOIN topics t ON t.topic_id = m.topic_id
         WHERE m.run = $1 AND m.source = $2 AND m.judge = $3 AND m.measure = $4
           AND t.source = $5`,
        [c.key.run, c.key.source, c.key.judge, c.key.measure, dataset],
      );
      const byHand = perTopic.reduce((a, r) => a + Number(r.value), 0) / perTopic.length;
      assert.ok(Math.abs(Number(stored.value) - byHand) < 1e-12, `${c.row} / ${c.column}`);
      assert.equal(Number(stored.topics), perTopic.length);
      assert.match(stored.topicSet, new RegExp(`[(,]n=${perTopic.length},dataset=${dataset}\\)$`));
      counts[dataset] = (counts[dataset] ?? 0) + 1;
    }
  } finally {
    ws.close();
  }
  return counts;
}

/** The tables every method's analyses save on these experiments. */
const TABLES = [
  "context_evaluation",
  "generation_overview",
  "keypoint_extraction",
  "keypoint_scores",
  "keypoint_vs_crux",
  "main_table",
  "method_answer_scores",
  "method_correlations",
  "method_disagreements",
  "method_significance",
  "method_system",
  "metric_correlations",
  "nugget_agreement",
  "nugget_scores",
  "nugget_topics",
  "report_scores",
  "subq_cells",
  "subq_metrics",
  "threshold_table",
  "topic_coverage",
];

Deno.test({
  name:
    "50-topic release fixture: every saved table's numeric cells are stored rows or named statistics",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-release-cells-" });
    try {
      const file = await writeReleaseFixture(dir, 50);
      const raw = JSON.parse(await Deno.readTextFile(file));
      raw.workspace = join(dir, "ws");
      await Deno.writeTextFile(file, JSON.stringify(raw));
      const checked = await runAndCheck(file, raw.workspace);
      assert.deepEqual(checked.plain, []);
      for (const name of TABLES) assert.ok(checked.tables.includes(name), name);
      // Two datasets (40 Multi-News topics, 10 DUC): every main-table value is one
      // dataset's stored mean, equal to the mean of its stored per-topic values.
      const perDataset = await checkDatasetMeans(raw.workspace);
      assert.deepEqual(Object.keys(perDataset).sort(), ["duc04", "multi_news"]);
      assert.ok(perDataset.duc04 >= 10, JSON.stringify(perDataset));
      assert.ok(checked.stored > 500, `${checked.stored} cells show stored rows`);
      assert.ok(checked.means > 0, "the system table's means are checked against their inputs");
      assert.ok(checked.shared > 100, `${checked.shared} stored rows shown in two tables`);
      // Every key and input names its stored row's topic set (checked against the row).
      assert.ok(checked.topicSets > checked.stored, `${checked.topicSets} topic sets checked`);
      assert.deepEqual(await nuggetScoreRuns(raw.workspace), [
        "direct",
        "oracle-context",
        "rag-bm25",
        "rag-dense",
      ]);
      // No vital nugget on these passages: strict vital is 0 for every run, tau undefined.
      const topics = (await Deno.readTextFile(join(dir, "topics.jsonl"))).trim().split("\n");
      const tau = await checkAgreement(raw.workspace, topics.length);
      assert.equal(tau.reason, "undefined: the first vector is constant (0 for all 3)");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "aligned release: every saved table's numeric cells are stored rows or named statistics",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-aligned-cells-" });
    try {
      const release = await writeAlignedRelease(dir);
      const p = (name: string) => join(dir, name);
      await Deno.writeTextFile(
        p("release.json"),
        JSON.stringify({
          name: "aligned",
          ...alignedReleaseExperiment(dir),
          generate: ["rag", "direct", "oracle"],
          nuggets: {},
          keypoints: {},
          subq: { n: 20, variants: [], validation: 0.5, seed: 42 },
          compare: { minRuns: 3 },
          analysis: { correlation: { samples: 4, size: 5, depth: 20, seed: 1 } },
        }),
      );
      const checked = await runAndCheck(p("release.json"), p("ws"));
      assert.deepEqual(checked.plain, []);
      for (const name of TABLES) assert.ok(checked.tables.includes(name), name);
      assert.ok(checked.stored > 100, `${checked.stored} cells show stored rows`);
      assert.ok(checked.shared > 10, `${checked.shared} stored rows shown in two tables`);
      assert.deepEqual(await nuggetScoreRuns(p("ws")), [
        "direct",
        "oracle-context",
        "rag-bm25",
        "rag-lancer",
      ]);
      await checkAgreement(p("ws"), release.topics.length);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
