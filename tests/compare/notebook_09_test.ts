/**
 * Notebook 09 on the bundled sample with three annotators' report-level label
 * files (synthetic, seeded, written here in the CRUX human-study format, named by
 * CRUX_HUMAN_LABELS since the config names no study): every section runs, and the
 * human agreement section shows the tables and figure of the stored study rows.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { displaySummary, type ExecutedNotebook, executeNotebook } from "../notebooks/_execute.ts";
import { seededRandom } from "@lib/metrics/mod.ts";

const root = new URL("../../", import.meta.url).pathname;

/** Three annotators labelling every sub-question of every sample topic, with seeded noise. */
async function labelFiles(dir: string): Promise<string[]> {
  const questions = JSON.parse(
    await Deno.readTextFile(join(root, "datasets/sample/questions.json")),
  ) as Record<string, string[]>;
  const rnd = seededRandom(9);
  const truth = Object.entries(questions).map(([id, qs]) => ({
    id,
    qs,
    labels: qs.map(() => (rnd() < 0.6 ? 1 : 0)),
  }));
  return await Promise.all([0.1, 0.15, 0.2].map(async (noise, k) => {
    const path = join(dir, `annotator_${k + 1}.jsonl`);
    const lines = truth.map(({ id, qs, labels }) => {
      const a = labels.map((l) => (rnd() < noise ? 1 - l : l));
      return JSON.stringify({
        id,
        question_based_nugget: Object.fromEntries(qs.map((q, i) => [q, a[i] ? "a span" : ""])),
        answerability: a,
        coverage: Math.round((a.reduce((s, v) => s + v, 0) / a.length) * 1000) / 1000,
      });
    });
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    return path;
  }));
}

Deno.test({
  name: "notebook 09 runs on the sample with annotator files and shows the human section",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const experiment = `nbtest-09h-${crypto.randomUUID().slice(0, 8)}`;
    const dir = await Deno.makeTempDir();
    try {
      const files = await labelFiles(dir);
      const count = (nb: ExecutedNotebook, mime: string) =>
        nb.outputs.filter((o) => o.kind === "display" && o.mimes.includes(mime)).length;
      // Comparison: bars (+ heatmap with two methods); human: coverage figure.
      // system, correlations, disagreements, significance; human agreement, confusion, coverage.
      const want = { figures: 2, tables: 7 };
      const nb = await executeNotebook(`${root}notebooks/09_methods_side_by_side.ipynb`, {
        env: { CRUX_EXPERIMENT: experiment, CRUX_HUMAN_LABELS: files.join(",") },
        // A display the loaded kernel delivers after its cell's reply is lost by nbclient;
        // such a run (no errors, displays missing) is executed again.
        complete: (nb) =>
          count(nb, "image/svg+xml") >= want.figures && count(nb, "text/html") >= want.tables,
      });
      const errors = nb.outputs.filter((o) => o.kind === "error");
      assert.deepEqual(errors.map((e) => e.text), []);
      const seen = `cell:display ${displaySummary(nb)}; ${nb.attempts?.join("; ") || "one run"}`;
      assert.ok(count(nb, "image/svg+xml") >= want.figures, `figures: ${seen}`);
      assert.ok(count(nb, "text/html") >= want.tables, `tables: ${seen}`);
      for (
        const f of [
          "tables/method_system.csv",
          "tables/human_agreement.csv",
          "figures/human_topic_coverage.svg",
        ]
      ) {
        await Deno.stat(join(root, "outputs", experiment, f));
      }
      // The human tables show the rows the measure:human-agreement stage stored: every numeric
      // cell names a stored human-study row of the labelled run.
      for (const name of ["human_agreement", "human_confusion", "human_topic_coverage"]) {
        const text = await Deno.readTextFile(
          join(root, "outputs", experiment, "tables", `${name}.cells.jsonl`),
        );
        const cells = text.trim().split("\n").map((l) => JSON.parse(l));
        assert.ok(cells.length > 0, name);
        for (const c of cells.filter((c) => !c.reason)) {
          assert.deepEqual([c.key?.source, c.key?.run], ["human-study", "oracle-result"], name);
        }
        assert.ok(cells.some((c) => c.key), `${name}: no cell names a stored row`);
      }
    } finally {
      await Deno.remove(join(root, "outputs", experiment), { recursive: true }).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});
