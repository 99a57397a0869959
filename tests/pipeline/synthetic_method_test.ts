/**
 * A method is its declaration and one registry line: a synthetic fifth method
 * (the word count of each report) added through a temporary registry runs
 * its measure stage, gets its own table and joins the comparison (in the
 * analyze stage, a notebook's method view and an overlay of the comparison),
 * with no other file touched; and adding it to the registry changes nothing
 * of an experiment whose config does not name it (every stage stays up to date).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { METHOD_REGISTRY } from "../../lib/methods/mod.ts";
import { bootstrapCi } from "../../lib/metrics/mod.ts";
import { loadExperimentConfig, methodView, runCruxExperiment } from "../../lib/experiment/mod.ts";
import {
  openWorkspace,
  readMeasures,
  readRunReports,
  readStatistics,
} from "../../lib/store/mod.ts";
import { WORD_COUNT, WORDS_KEY } from "../support/word_count_method.ts";

const root = new URL("../../", import.meta.url).pathname;
const fixtures = join(root, "tests", "golden", "crux", "fixtures");

/** The registry with the word count before the comparison (which reads the others). */
const last = METHOD_REGISTRY.at(-1)!;
const REGISTRY = [...METHOD_REGISTRY.slice(0, -1), WORD_COUNT, last];

Deno.test({
  name:
    "a synthetic method in a temporary registry flows to its own table and the comparison; unnamed, it changes nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    assert.equal(last.key, "compare", "the comparison is the registry's last method");
    const dir = await Deno.makeTempDir();
    const file = join(dir, "exp.json");
    const base: Record<string, unknown> = {
      name: "words",
      workspace: "ws",
      dataset: {
        source: "crux",
        corpus: join(fixtures, "corpus.jsonl"),
        topics: join(fixtures, "topics.jsonl"),
        judgments: join(fixtures, "judgments.jsonl"),
        subquestions: join(fixtures, "subquestions.json"),
      },
      backend: "offline",
      retrieve: [{ name: "bm25", k: 50 }],
      compare: { minRuns: 2 },
    };
    const run = async (raw: Record<string, unknown>, methods: typeof METHOD_REGISTRY) => {
      await Deno.writeTextFile(file, JSON.stringify(raw));
      const config = await loadExperimentConfig(file, { methods });
      const r = await runCruxExperiment(config, { methods });
      return { config, stages: r.stages };
    };
    try {
      // The registry's methods on a config naming only the comparison.
      const first = await run(base, METHOD_REGISTRY);
      assert.ok(first.stages.ran.includes("measure:compare"), first.stages.ran.join(", "));
      // The same config with the method added to the registry: every stage up to date.
      const same = await run(base, REGISTRY);
      assert.deepEqual(same.stages.ran, []);
      assert.equal(same.stages.fresh.length, first.stages.ran.length);

      // Naming it: its stage, its table and a comparison with it.
      const named = await run({ ...base, [WORDS_KEY]: {} }, REGISTRY);
      // Its stage, and those reading every measure stage: nothing of CRUX's chain.
      assert.deepEqual(named.stages.ran.sort(), [
        "analyze",
        "measure:compare",
        "measure:words",
        "statistics",
      ]);
      const out = named.config.workspace;
      const ws = await openWorkspace(out, { readOnly: true });
      try {
        const runs = [
          ...new Set((await readMeasures(ws, { method: WORDS_KEY })).map((r) => r.run)),
        ];
        assert.ok(runs.length >= 2, runs.join(", "));
        const means = new Map<string, number>();
        for (const r of runs) {
          // By hand: the words of each stored report, split on white space.
          const reports = await readRunReports(ws, r);
          const words = reports.map((x) => x.text!.split(/\s+/).filter((w) => w !== "").length);
          const stored = await readMeasures(ws, { method: WORDS_KEY, run: r, perTopic: true });
          assert.deepEqual(
            stored.map((s) => [s.topicId, s.value]),
            reports.map((x, i) => [x.topicId, words[i]]),
          );
          const [all] = await readMeasures(ws, { method: WORDS_KEY, run: r, topicId: "all" });
          const mean = words.reduce((s, v) => s + v, 0) / words.length;
          assert.ok(Math.abs(all.value! - mean) < 1e-9, `${r}: ${all.value} vs ${mean}`);
          assert.equal(all.topics, words.length);
          means.set(r, mean);
        }
        // Its own table: one row per run with the stored mean (the caption line first).
        const csv = (await Deno.readTextFile(join(out, "tables", "word_counts.csv"))).trim()
          .split("\n");
        assert.deepEqual(csv.slice(0, 2), [
          "# Words per report (mean over topics)",
          "Run,Words,Topics",
        ]);
        assert.deepEqual(
          csv.slice(2, -1).map((line) => line.split(",")).map((
            [r, v, n],
          ) => [r, Number(v), Number(n)]),
          runs.map((r) => [r, means.get(r), 20]),
        );
        // Its statistic, the mean over runs, stored by the statistics stage and shown from it.
        const overRuns = [...means.values()].reduce((s, v) => s + v, 0) / means.size;
        const statistics = await readStatistics(ws);
        const [stat] = statistics.filter((s) =>
          s.key.statistic === "mean" && s.key.x.every((x) => x.measure === "words")
        );
        assert.equal(stat.key.statistic, "mean");
        assert.equal(stat.n, runs.length);
        assert.ok(Math.abs(stat.value! - overRuns) < 1e-9, `${stat.value} vs ${overRuns}`);
        const [label, shownMean, topics] = csv.at(-1)!.split(",");
        assert.deepEqual([label, Number(shownMean), topics], ["mean over runs", stat.value, ""]);
        // The comparison: stored correlations of crux and words, and a column in its table.
        const pair = await readMeasures(ws, {
          method: "compare",
          run: `crux~${WORDS_KEY}`,
          topicId: "all",
          measure: "kendall_tau_b",
        });
        assert.equal(pair.length, 1);
        const system = await Deno.readTextFile(join(out, "tables", "method_system.csv"));
        const lines = system.trim().split("\n").filter((l) => !l.startsWith("#"));
        const header = lines[0].split(",");
        const at = header.indexOf("words / Words");
        assert.ok(at > 0, lines[0]);
        // Direct's reports are all empty: left out of the comparison, the others at their means.
        const shown = lines.slice(1).map((l) => l.replace(/"[^"]*"/g, "ci").split(",")).map((
          c,
        ) => [c[0], Number(c[at])]);
        assert.deepEqual(
          shown,
          runs.filter((r) => r !== "direct").map((r, i) => [`${i + 1}. ${r}`, means.get(r)]),
        );
        assert.match(system, /# judges: CRUX Cov lexical; Words no judge\n/);
        // Its intervals in the comparison: the stored bootstrap bounds over the run's
        // word counts (every method scored every topic here), shown from their rows.
        const cis = lines.slice(1).map((l) => l.match(/"\[[^"]*\]"/g)!);
        const wordsCi = header.filter((h) => h.endsWith("95% CI")).length - 1;
        for (const [i, r] of runs.filter((r) => r !== "direct").entries()) {
          const bound = (statistic: string) =>
            statistics.find((s) =>
              s.key.statistic === statistic && s.key.x[0].run === r &&
              s.key.x[0].measure === "words"
            )!;
          const [lower, upper] = [bound("bootstrap_ci_lower"), bound("bootstrap_ci_upper")];
          const stored = await readMeasures(ws, { method: WORDS_KEY, run: r, perTopic: true });
          const ci = bootstrapCi(
            stored.sort((a, b) => (a.topicId < b.topicId ? -1 : 1)).map((s) => s.value!),
          );
          assert.deepEqual([lower.value, upper.value, lower.n], [ci.lower, ci.upper, 20]);
          assert.equal(cis[i][wordsCi], `"[${ci.lower.toFixed(3)}, ${ci.upper.toFixed(3)}]"`);
        }
      } finally {
        ws.close();
      }
      // A notebook's view of the method: its stage (up to date) and its table.
      const view = await methodView(named.config, WORDS_KEY, { methods: REGISTRY });
      assert.deepEqual(view.specs.map((s) => s.id), ["measure:words"]);
      assert.deepEqual(view.stages.ran, []);
      assert.deepEqual(view.analyses.map((a) => a.name), ["word_counts"]);
      // An overlay of the comparison still compares the config's methods.
      const overlay = await methodView(named.config, "compare", {
        methods: REGISTRY,
        overlay: { name: "runs3", settings: { minRuns: 3 } },
      });
      const compare = overlay.specs.find((s) => s.id === "measure:compare")!;
      assert.deepEqual(compare.params, {
        methods: ["crux", WORDS_KEY],
        judges: {},
        sources: {},
        minRuns: 3,
        runs: (compare.params as { runs: string[] }).runs,
      });
      assert.deepEqual(overlay.stages.ran, ["measure:compare"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
