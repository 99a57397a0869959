/**
 * Executes every notebook in `notebooks/` headless on the bundled sample (with
 * the Deno kernel when Jupyter is installed) and checks that each ran without
 * errors and displayed the tables and figures it promises.
 */
import assert from "node:assert/strict";
import { displaySummary, type ExecutedNotebook, executeNotebook, hasJupyter } from "./_execute.ts";

const root = new URL("../../", import.meta.url).pathname;

/** What each notebook must show: minimum counts of inline figures (SVG) and HTML tables. */
const EXPECT: Record<string, { figures: number; tables: number }> = {
  "01_dataset.ipynb": { figures: 1, tables: 3 },
  "02_retrieval_and_context_eval.ipynb": { figures: 2, tables: 1 },
  "03_generation.ipynb": { figures: 1, tables: 1 },
  "04_judging.ipynb": { figures: 1, tables: 1 },
  "05_analysis.ipynb": { figures: 3, tables: 3 },
  "06_nuggets.ipynb": { figures: 2, tables: 3 },
  "07_keypoints.ipynb": { figures: 4, tables: 4 },
  // The sample config names no core sub-question variants: no win-rate matrix.
  "08_subquestion_types.ipynb": { figures: 0, tables: 3 },
  "09_methods_side_by_side.ipynb": { figures: 1, tables: 4 },
  // The grid table, the main table grouped by first stage, the per-cell provenance.
  "10_rerankers.ipynb": { figures: 1, tables: 3 },
};

const notebooks = [...Deno.readDirSync(`${root}notebooks`)]
  .map((e) => e.name)
  .filter((n) => n.endsWith(".ipynb"))
  .sort();

Deno.test("every expected notebook is present", () => {
  for (const name of Object.keys(EXPECT)) assert.ok(notebooks.includes(name), `missing ${name}`);
});

function count(nb: ExecutedNotebook, mime: string): number {
  return nb.outputs.filter((o) => o.kind === "display" && o.mimes.includes(mime)).length;
}

for (const name of notebooks) {
  Deno.test({
    name: `notebook ${name} executes and shows its tables and figures`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const experiment = `nbtest-${name.slice(0, 2)}-${crypto.randomUUID().slice(0, 8)}`;
      try {
        const want = EXPECT[name] ?? { figures: 0, tables: 0 };
        const nb = await executeNotebook(`${root}notebooks/${name}`, {
          env: { CRUX_EXPERIMENT: experiment },
          complete: (nb) =>
            count(nb, "image/svg+xml") >= want.figures && count(nb, "text/html") >= want.tables,
        });
        const errors = nb.outputs.filter((o) => o.kind === "error");
        assert.deepEqual(errors.map((e) => e.text), [], `${name} raised errors (${nb.mode})`);
        assert.ok(
          count(nb, "image/svg+xml") >= want.figures,
          `${name}: expected >= ${want.figures} inline SVG figures, saw ${
            count(nb, "image/svg+xml")
          } (cell:display ${displaySummary(nb)}; ${nb.attempts?.join("; ") || "one run"})`,
        );
        assert.ok(
          count(nb, "text/html") >= want.tables,
          `${name}: expected >= ${want.tables} HTML tables, saw ${
            count(nb, "text/html")
          } (cell:display ${displaySummary(nb)}; ${nb.attempts?.join("; ") || "one run"})`,
        );
        // Interactive Vega-Lite (the version in deno.json: v6, plus v5 for older front ends)
        // with the static SVG as the fallback, in the same output.
        const rich = nb.outputs.filter((o) =>
          o.kind === "display" && o.mimes.includes("image/svg+xml") &&
          o.mimes.includes("application/vnd.vegalite.v6+json") &&
          o.mimes.includes("application/vnd.vegalite.v5+json")
        ).length;
        assert.ok(
          rich >= want.figures,
          `${name}: expected >= ${want.figures} figures with Vega-Lite and SVG, saw ${rich}`,
        );
      } finally {
        await Deno.remove(`${root}outputs/${experiment}`, { recursive: true }).catch(() => {});
      }
    },
  });
}

// On a machine without Jupyter the notebooks run as scripts; when Jupyter is
// installed the loop above uses the kernel, so the fallback is exercised here.
if (await hasJupyter()) {
  for (const name of notebooks) {
    Deno.test({
      name: `notebook ${name} also runs without Jupyter (script fallback)`,
      sanitizeResources: false,
      sanitizeOps: false,
      fn: async () => {
        const experiment = `nbscript-${name.slice(0, 2)}-${crypto.randomUUID().slice(0, 8)}`;
        try {
          const nb = await executeNotebook(`${root}notebooks/${name}`, {
            env: { CRUX_EXPERIMENT: experiment, CRUX_NOTEBOOK_MODE: "script" },
            mode: "script",
          });
          assert.equal(nb.mode, "script");
          const errors = nb.outputs.filter((o) => o.kind === "error");
          assert.deepEqual(errors.map((e) => e.text), [], `${name} raised errors (script)`);
          const want = EXPECT[name] ?? { figures: 0, tables: 0 };
          assert.ok(count(nb, "image/svg+xml") >= want.figures, `${name}: figures`);
          assert.ok(count(nb, "text/html") >= want.tables, `${name}: tables`);
        } finally {
          await Deno.remove(`${root}outputs/${experiment}`, { recursive: true }).catch(() => {});
        }
      },
    });
  }
}
