/**
 * Every route to a number gives the same number: `crux eval` on files exported
 * from a workspace, `crux measure` on the workspace, the measure table and the
 * main table agree exactly on P, nDCG, alpha-nDCG, Cov and Den, with relevance
 * from the selection's qrels and from the ratings alone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { runCruxExperiment } from "../../lib/experiment/mod.ts";
import { loadExperimentConfig } from "../../lib/experiment/mod.ts";
import { openWorkspace } from "../../lib/store/mod.ts";

const root = new URL("../../", import.meta.url).pathname;
const sample = join(root, "datasets", "sample");
const MEASURES =
  "P@10 nDCG@10 alpha_nDCG@10 Cov@10 Den@10 Cov@oracle Den@oracle alpha_nDCG@oracle P@5";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  assert.equal(code, 0, `${args.join(" ")}: ${io.stderr()}`);
  return io.stdout();
}

Deno.test({
  name: "crux eval, crux measure, the measure table and the main table agree exactly",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const ws = join(dir, "ws");
    const config = await loadExperimentConfig(
      join(root, "notebooks", "configs", "sample-offline.json"),
      {
        root,
      },
    );
    const run = await runCruxExperiment({ ...config, workspace: ws });
    // Files for crux eval, exported from the workspace.
    await crux([
      "export",
      "--workspace",
      ws,
      "--table",
      "runs",
      "--run",
      "bm25",
      "--format",
      "trec",
      "--out",
      join(dir, "bm25.run"),
    ]);
    await crux([
      "export",
      "--workspace",
      ws,
      "--table",
      "qrels",
      "--name",
      "crux_pr",
      "--format",
      "trec",
      "--out",
      join(dir, "pr.txt"),
    ]);
    await crux([
      "export",
      "--workspace",
      ws,
      "--table",
      "qrels",
      "--name",
      "crux_div",
      "--format",
      "trec",
      "--out",
      join(dir, "div.txt"),
    ]);
    // The workspace rates passages only; the sample file also rates each human summary.
    const passagesOnly = (await Deno.readTextFile(join(sample, "judgments.jsonl"))).split("\n")
      .filter((l) => l.trim() && !l.includes(':report"')).join("\n") + "\n";
    await Deno.writeTextFile(join(dir, "judgments.jsonl"), passagesOnly);
    const common = [
      "--judgments",
      join(dir, "judgments.jsonl"),
      "--corpus",
      join(sample, "corpus.jsonl"),
      "-m",
      MEASURES,
      "--format",
      "json",
    ];

    for (const source of ["selection", "judgments"] as const) {
      const files = source === "selection"
        ? ["--qrels", join(dir, "pr.txt"), "--div-qrels", join(dir, "div.txt")]
        : [];
      const viaEval = JSON.parse(
        await crux(["eval", "--run", `${join(dir, "bm25.run")}=bm25`, ...files, ...common]),
      );
      const viaMeasure = JSON.parse(
        await crux([
          "measure",
          "--workspace",
          ws,
          "--run",
          "bm25",
          "--relevance",
          source,
          "-m",
          MEASURES,
          "--format",
          "json",
        ]),
      );
      assert.deepEqual(viaMeasure.aggregate, viaEval.aggregate, source);
      assert.equal(viaMeasure.topics, viaEval.topics);
      // The measure table holds the printed values.
      const w = await openWorkspace(ws, { readOnly: true });
      try {
        const stored = await w.query<{ measure: string; value: number; source: string }>(
          "SELECT measure, value, source FROM measures WHERE run = 'bm25' AND topic_id = 'all' AND (source = $1 OR source = '')",
          [source],
        );
        for (const [measure, value] of Object.entries(viaEval.aggregate)) {
          assert.equal(
            stored.find((s) => s.measure === measure)?.value,
            value,
            `${source} ${measure}`,
          );
        }
      } finally {
        w.close();
      }
    }
    // The main table's context measures are the @oracle values of the measure table.
    const selection = JSON.parse(
      await crux([
        "measure",
        "--workspace",
        ws,
        "--run",
        "bm25",
        "-m",
        "Cov@oracle Den@oracle alpha_nDCG@oracle",
        "--format",
        "json",
      ]),
    ).aggregate;
    const main = run.analyses!.analyses.find((a) => a.name === "main_table")!;
    const means =
      (main.data as { means: { condition: string; measure: string; value: number }[] }).means;
    const mean = (m: string) =>
      means.find((x) => (x.condition === "rag-bm25" || x.condition === "bm25") && x.measure === m)!
        .value;
    assert.ok(Math.abs(mean("covZ") - selection["Cov@oracle"]) < 1e-12, "Cov(Z)");
    assert.ok(Math.abs(mean("denZ") - selection["Den@oracle"]) < 1e-12, "Den(Z)");
    assert.ok(Math.abs(mean("andcg") - selection["alpha_nDCG@oracle"]) < 1e-12, "alpha-nDCG");
    await Deno.remove(dir, { recursive: true });
  },
});
