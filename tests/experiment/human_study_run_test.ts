/**
 * A config naming a human study, run end to end on the bundled sample: the
 * `measure:human-agreement` stage stores the study's rows, the analyze stage saves
 * the human agreement tables as views of them (every cell the stored row its key
 * names), a re-run runs nothing, and an edited annotator file re-runs the stage.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadExperimentConfig, runCruxExperiment } from "@lib/experiment/mod.ts";
import { openWorkspace, readMeasures } from "@lib/store/mod.ts";
import { checkCells } from "../support/check_cells.ts";

const root = new URL("../../", import.meta.url).pathname;

Deno.test({
  name: "analysis.humanStudy: stored by its stage, shown by the analyze stage, re-run on an edit",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-study-run-" });
    try {
      const questions = JSON.parse(
        await Deno.readTextFile(join(root, "datasets/sample/questions.json")),
      ) as Record<string, string[]>;
      // Two annotators: the first labels every sub-question answered, the second the odd ones.
      const files = ["a1.jsonl", "a2.jsonl"];
      for (const [k, file] of files.entries()) {
        const lines = Object.entries(questions).map(([id, qs]) =>
          JSON.stringify({ id, answerability: qs.map((_, i) => (k === 0 || i % 2 ? 1 : 0)) })
        );
        await Deno.writeTextFile(join(dir, file), lines.join("\n") + "\n");
      }
      const path = join(dir, "study.json");
      await Deno.writeTextFile(
        path,
        JSON.stringify({
          name: "study",
          workspace: "ws",
          dataset: { source: "sample", dir: join(root, "datasets/sample") },
          backend: "offline",
          analysis: { humanStudy: { files } },
        }),
      );
      const config = await loadExperimentConfig(path);
      const first = await runCruxExperiment(config, {});
      assert.ok(first.stages.ran.includes("measure:human-agreement"), first.stages.ran.join());
      const ws = await openWorkspace(config.workspace, { readOnly: true });
      let items: number, topics: number;
      try {
        const rows = await readMeasures(ws, { source: "human-study", topicId: "all" });
        const value = (m: string) => rows.find((r) => r.measure === m && r.judge === "")!.value;
        topics = Object.keys(questions).length;
        items = Object.values(questions).reduce((s, qs) => s + qs.length, 0);
        assert.equal(value("study_items"), items);
        assert.equal(value("study_annotators"), 2);
        // The first annotator's labels are all 1: A1-A2 agree on the odd slots only.
        const odd = Object.values(questions).reduce((s, qs) => s + Math.floor(qs.length / 2), 0);
        const conf = (m: string) => rows.find((r) => r.measure === m && r.judge === "A1-A2")!.value;
        assert.deepEqual(
          ["00", "01", "10", "11"].map((c) => conf(`study_confusion_${c}`)),
          [0, 0, items - odd, odd],
        );
        assert.equal(rows[0].topicSet, `scored(n=${topics})`);
      } finally {
        ws.close();
      }
      const checked = await checkCells(config.workspace);
      for (const name of ["human_agreement", "human_confusion"]) {
        assert.ok(checked.tables.includes(name), `${name}.cells.jsonl is saved`);
      }
      const agreement = await Deno.readTextFile(
        join(config.workspace, "tables", "human_agreement.cells.jsonl"),
      );
      assert.match(agreement, /"source":"human-study"/);
      // Unchanged: nothing runs again.
      const again = await runCruxExperiment(config, {});
      assert.deepEqual(again.stages.ran, []);
      // An edited annotator file is a new input: its stage and the analyses run again.
      await Deno.writeTextFile(
        join(dir, "a2.jsonl"),
        (await Deno.readTextFile(join(dir, "a2.jsonl"))).replaceAll("[0,", "[1,"),
      );
      const edited = await runCruxExperiment(await loadExperimentConfig(path), {});
      assert.ok(edited.stages.ran.includes("measure:human-agreement"), edited.stages.ran.join());
      assert.ok(edited.stages.ran.includes("analyze"), edited.stages.ran.join());
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
