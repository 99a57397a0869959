/**
 * The comparison on the bundled sample: every method present in the measure
 * table scores every answer run, missing methods are listed, and the
 * correlations `crux compare` prints equal a recomputation from the measure
 * table here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { compareCommand } from "@lib/cli/commands/compare.ts";
import { kendallTau, pearson, spearman } from "@lib/metrics/mod.ts";
import { loadExperimentConfig } from "@lib/experiment/mod.ts";
import { METHOD_HEADLINES } from "@lib/methods/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";

const root = new URL("../../", import.meta.url).pathname;
const CONFIG = "notebooks/configs/sample-offline.json";

Deno.test({
  name: "crux compare --config on the sample: every method for every run, correlations recomputed",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const experiment = `cmptest-${crypto.randomUUID().slice(0, 8)}`;
    const config = await loadExperimentConfig(join(root, CONFIG), { experiment, root });
    try {
      await runCruxExperiment(config, { until: "measure" });
      const io = memoryIo();
      const code = await main(
        [
          "compare",
          "--config",
          join(root, CONFIG),
          "--experiment",
          experiment,
          "--format",
          "json",
          "--trials",
          "200",
        ],
        io,
        [compareCommand],
      );
      assert.equal(code, 0, io.stderr());
      const r = JSON.parse(io.stdout());
      const ws = await openWorkspace(config.workspace, { readOnly: true });
      let answerRuns: string[],
        emptyRuns: string[],
        raw: { method: string; run: string; topicId: string; value: number }[];
      try {
        answerRuns =
          (await ws.query<{ run: string }>("SELECT DISTINCT run FROM generations ORDER BY run"))
            .map((x) => x.run);
        // Runs whose reports are all empty (direct prompting offline) score nothing.
        emptyRuns = (await ws.query<{ run: string }>(
          `SELECT run FROM generations GROUP BY run HAVING bool_and(coalesce(trim(text), '') = '')
           ORDER BY run`,
        )).map((x) => x.run);
        raw = [];
        for (const h of METHOD_HEADLINES) {
          raw.push(
            ...await ws.query<{ method: string; run: string; topicId: string; value: number }>(
              `SELECT method, run, topic_id, value FROM measures WHERE method = $1 AND measure = $2
               AND topic_id <> 'all' AND value IS NOT NULL ${
                h.source ? "AND source = 'report'" : ""
              }`,
              [h.method, h.measure],
            ),
          );
        }
      } finally {
        ws.close();
      }
      const present: string[] = r.methods.map((m: { method: string }) => m.method);
      const missing: string[] = r.missing.map((m: { method: string }) => m.method);
      assert.deepEqual(
        [...present, ...missing].sort(),
        METHOD_HEADLINES.map((h) => h.method).sort(),
      );
      assert.ok(present.includes("crux"), "CRUX report coverage is measured on the sample");
      assert.ok(answerRuns.length >= 3);
      for (const m of r.methods) assert.deepEqual([...m.runs].sort(), answerRuns, m.method);
      assert.ok(emptyRuns.length < answerRuns.length - 2);
      for (const run of answerRuns) {
        const row = r.system.find((s: { run: string }) => s.run === run);
        // A run of empty reports is left out of the system table, not averaged in as zeros.
        if (emptyRuns.includes(run)) assert.equal(row, undefined, run);
        else for (const m of present) assert.equal(typeof row.values[m], "number", `${m} ${run}`);
      }
      const scoredRuns = answerRuns.filter((run) => !emptyRuns.includes(run));
      // Recompute: per run, each method's mean over the topics every present method scored.
      const has = new Set(raw.map((x) => `${x.method}\0${x.run}\0${x.topicId}`));
      const shared = raw.filter((x) =>
        present.every((m) => has.has(`${m}\0${x.run}\0${x.topicId}`))
      );
      const means = (m: string) =>
        scoredRuns.map((run) => {
          const xs = shared.filter((x) => x.method === m && x.run === run).map((x) => x.value);
          return xs.reduce((s, v) => s + v, 0) / xs.length;
        });
      assert.equal(r.correlations.length, (present.length * (present.length - 1)) / 2);
      for (const c of r.correlations) {
        const [x, y] = [means(c.a), means(c.b)];
        const check = (got: number | null, want: number) =>
          Number.isNaN(want) ? assert.equal(got, null) : assert.ok(Math.abs(got! - want) < 1e-12);
        check(c.kendall, kendallTau(x, y));
        check(c.spearman, spearman(x, y));
        check(c.pearson, pearson(x, y));
      }
      await Deno.stat(join(config.workspace, "tables", "method_system.csv"));
    } finally {
      await Deno.remove(join(root, "outputs", experiment), { recursive: true }).catch(() => {});
    }
  },
});
