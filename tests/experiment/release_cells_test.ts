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
import { type CellsChecked, checkCells } from "../support/check_cells.ts";
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
      assert.ok(checked.stored > 500, `${checked.stored} cells show stored rows`);
      assert.ok(checked.means > 0, "the system table's means are checked against their inputs");
      assert.ok(checked.shared > 100, `${checked.shared} stored rows shown in two tables`);
      // Every key and input names its stored row's topic set (checked against the row).
      assert.ok(checked.topicSets > checked.stored, `${checked.topicSets} topic sets checked`);
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
      await writeAlignedRelease(dir);
      const p = (name: string) => join(dir, name);
      await Deno.writeTextFile(
        p("release.json"),
        JSON.stringify({
          name: "aligned",
          ...alignedReleaseExperiment(dir),
          generate: ["rag", "direct", "oracle"],
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
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
