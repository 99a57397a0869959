/**
 * The regression matrix: the main table's numbers of the demo config (the
 * bundled sample) and of a release-format experiment, pinned with the config
 * that produced them. A change in any definition (selection, judged inputs,
 * budgets, measures, the offline backends) shows up as a failing number.
 *
 * To refresh after an intended change: `deno run -A tests/regression/main_table_test.ts --write`
 * and explain the change.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCruxExperiment } from "../../lib/experiment/mod.ts";
import { loadExperimentConfig, parseExperimentConfig } from "../../lib/experiment/mod.ts";
import type { CruxExperimentConfig } from "../../lib/pipeline/mod.ts";

const root = new URL("../../", import.meta.url).pathname;
const fixtures = join(root, "tests", "golden", "crux", "fixtures");
const PINNED = join(root, "tests", "regression", "main_table.json");

/** The configs of the matrix (the release one is written here, with paths from the repository). */
async function configs(): Promise<Record<string, CruxExperimentConfig>> {
  const release = {
    name: "release",
    dataset: {
      source: "crux",
      corpus: join(fixtures, "corpus.jsonl"),
      topics: join(fixtures, "topics.jsonl"),
      judgments: join(fixtures, "judgments.jsonl"),
      subquestions: join(fixtures, "subquestions.json"),
    },
    backend: "offline",
    retrieve: [
      { name: "bm25", k: 50 },
      { name: "dense", kind: "dense", embedder: "tfidf", k: 50 },
      { name: "hybrid", kind: "fusion", runs: ["bm25", "dense"], method: "rrf" },
    ],
    analysis: { correlation: { samples: 4, size: 5, depth: 20, seed: 1 } },
  };
  return {
    demo: await loadExperimentConfig(join(root, "notebooks", "configs", "sample-offline.json"), {
      root,
    }),
    release: parseExperimentConfig(JSON.stringify(release), { file: "release.json", root }),
  };
}

/** Main-table means of one config in a fresh workspace, rounded to 12 digits. */
async function means(config: CruxExperimentConfig): Promise<Record<string, number>> {
  const dir = await Deno.makeTempDir();
  try {
    const r = await runCruxExperiment({ ...config, workspace: dir });
    const main = r.analyses!.analyses.find((a) => a.name === "main_table")!;
    const data = main.data as { means: { condition: string; measure: string; value: number }[] };
    return Object.fromEntries(
      data.means.map((m) => [`${m.condition} ${m.measure}`, Number(m.value.toFixed(12))]).sort(),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main && Deno.args.includes("--write")) {
  const out: Record<string, Record<string, number>> = {};
  for (const [name, config] of Object.entries(await configs())) out[name] = await means(config);
  await Deno.writeTextFile(PINNED, JSON.stringify(out, null, 2) + "\n");
  console.log(`wrote ${PINNED}`);
} else {
  Deno.test({
    name: "regression matrix: the main-table numbers of the demo and a release-format experiment",
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const pinned = JSON.parse(await Deno.readTextFile(PINNED));
      for (const [name, config] of Object.entries(await configs())) {
        assert.deepEqual(await means(config), pinned[name], name);
      }
    },
  });
}
