import assert from "node:assert/strict";
import { memoryIo } from "../command.ts";
import { main } from "../main.ts";
import { runCommand } from "./run.ts";
import { openWorkspace } from "@lib/store/mod.ts";

const sample = new URL("../../../datasets/sample", import.meta.url).pathname;

/** A config over the bundled sample whose workspace is a temporary folder. */
async function tempConfig(): Promise<{ dir: string; config: string }> {
  const dir = await Deno.makeTempDir({ prefix: "crux-run-" });
  const config = `${dir}/exp.json`;
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      name: "runtest",
      workspace: `${dir}/ws`,
      dataset: { source: "sample", dir: sample },
      backend: "offline",
      retrieve: [
        { name: "bm25", k: 50 },
        { name: "dense", kind: "dense", embedder: "tfidf", k: 50 },
        { name: "hybrid", kind: "fusion", runs: ["bm25", "dense"], method: "rrf" },
      ],
      rerank: [{ name: "bm25-mmr", from: "bm25", method: "mmr", lambda: 0.5 }],
      analysis: { correlation: { samples: 4, size: 5, depth: 20, seed: 3 } },
    }),
  );
  return { dir, config };
}

Deno.test({
  name: "crux run: the whole offline chain and the analyses on the sample",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const { dir, config } = await tempConfig();
    try {
      const io2 = memoryIo();
      assert.equal(await main(["run", "--config", config], io2, [runCommand]), 0, io2.stderr());
      const out = io2.stdout();
      assert.match(
        out,
        /Retrieval contexts and reports under the oracle budget \(offline backends\)/,
      );
      assert.match(out, /bm25-mmr/);
      assert.match(out, /\nhybrid /);
      assert.match(out, /\ndense /);
      assert.match(io2.stderr(), /\[retrieve\] hybrid: \d+ rows/);
      assert.match(out, /Oracle context P\*/);
      assert.match(out, /Answerability threshold τ = 3 vs 5/);
      assert.match(io2.stderr(), /\[rerank\] bm25-mmr: \d+ rows/);
      for (
        const f of [
          "tables/main_table.tex",
          "tables/threshold_table.csv",
          "tables/context_size_table.md",
          "figures/metric_correlations.png",
          "figures/topic_coverage.vl.json",
        ]
      ) {
        assert.ok((await Deno.stat(`${dir}/ws/${f}`)).size > 0, f);
      }
      const tex = await Deno.readTextFile(`${dir}/ws/tables/main_table.tex`);
      assert.match(tex, /\\textbf\{/);
      assert.match(tex, /offline backends: lexical judge, tfidf embedder, extractive generator/);
      // A second run finds everything done: no new reports, no new rerank rows.
      const io3 = memoryIo();
      assert.equal(await main(["run", "--config", config], io3, [runCommand]), 0);
      assert.match(io3.stderr(), /\[rerank\] bm25-mmr: already there/);
      assert.match(io3.stderr(), /\[judge\] 0 new report ratings/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "crux run: --until retrieve stops before generation; bad usage is reported",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const { dir, config } = await tempConfig();
    try {
      const io = memoryIo();
      assert.equal(
        await main(["run", "--config", config, "--until", "retrieve"], io, [runCommand]),
        0,
        io.stderr(),
      );
      assert.match(io.stdout(), /Stopped after stage "retrieve"/);
      assert.doesNotMatch(io.stderr(), /\[generate\]/);
      // --until generate writes reports but judges none of them.
      const gen = memoryIo();
      assert.equal(
        await main(["run", "--config", config, "--until", "generate"], gen, [runCommand]),
        0,
        gen.stderr(),
      );
      assert.match(gen.stdout(), /Stopped after stage "generate"/);
      const ws = await openWorkspace(`${dir}/ws`);
      try {
        assert.ok(await ws.count("generations") > 0);
        const judged = await ws.query<{ n: number }>(
          "SELECT count(*)::INTEGER AS n FROM ratings WHERE item_id LIKE '%:report:%'",
        );
        assert.equal(judged[0].n, 0);
      } finally {
        ws.close();
      }
      const bad = memoryIo();
      assert.equal(
        await main(["run", "--config", config, "--until", "report"], bad, [runCommand]),
        2,
      );
      assert.match(
        bad.stderr(),
        /--until "report" is not a stage; use one of construct, retrieve, generate, judge, measure, analyze/,
      );
      const none = memoryIo();
      assert.equal(await main(["run"], none, [runCommand]), 2);
      assert.match(none.stderr(), /--config FILE is required/);
      const missing = memoryIo();
      assert.equal(await main(["run", "--config", `${dir}/nope.json`], missing, [runCommand]), 1);
      assert.match(missing.stderr(), /nope\.json/);
      const wrong = `${dir}/wrong.json`;
      await Deno.writeTextFile(
        wrong,
        JSON.stringify({
          name: "w",
          retrieve: [{ name: "h", kind: "fusion", runs: ["bm25", "dense"], method: "rrf" }],
        }),
      );
      const invalid = memoryIo();
      assert.equal(await main(["run", "--config", wrong], invalid, [runCommand]), 1);
      assert.match(
        invalid.stderr(),
        /wrong\.json": field "retrieve\[0\]\.runs\[0\]" must name an earlier retrieve run \(none\), got "bm25"/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
