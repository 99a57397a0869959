/**
 * Reproducibility: adding pipelines to an existing workspace gives the same
 * tables as running every pipeline at once on a fresh one (the offline judge's
 * statistics do not depend on which reports happen to be judged together).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { loadExperimentConfig } from "@lib/experiment/mod.ts";
import { repoRoot } from "@lib/experiment/mod.ts";

const configPath = join(repoRoot(), "notebooks", "configs", "sample-offline.json");

function rows(csv: string): string[] {
  return csv.split("\n").filter((l) => l && !l.startsWith("#"));
}

Deno.test({
  name: "adding pipelines later gives the same main table as running them all at once",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-incremental-" });
    try {
      const full = await loadExperimentConfig(configPath, { root: repoRoot() });
      const fresh = { ...full, workspace: join(dir, "fresh") };
      await runCruxExperiment(fresh);
      const stepwise = { ...full, workspace: join(dir, "stepwise") };
      const first = (stepwise.retrieve ?? []).filter((r) => r.name === "bm25");
      assert.equal(first.length, 1);
      await runCruxExperiment({ ...stepwise, retrieve: first, rerank: [] });
      await runCruxExperiment(stepwise);
      const table = (ws: string) => Deno.readTextFile(join(ws, "tables", "main_table.csv"));
      const a = rows(await table(fresh.workspace));
      const b = rows(await table(stepwise.workspace));
      assert.ok(a.length >= 8, "the main table lists the pipelines and references");
      assert.deepEqual(b, a);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
