import assert from "node:assert/strict";
import { memoryIo } from "../command.ts";
import { main } from "../main.ts";
import { runCommand } from "./run.ts";
import { openWorkspace, readRerankUsage } from "@lib/store/mod.ts";

const root = new URL("../../../", import.meta.url).pathname;

Deno.test({
  name: "crux run: the offline reranker grid of the sample config, its provenance and table",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-grid-" });
    const sample = JSON.parse(
      await Deno.readTextFile(`${root}notebooks/configs/sample-grid.json`),
    );
    const config = `${dir}/grid.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        ...sample,
        workspace: `${dir}/ws`,
        dataset: { source: "sample", dir: `${root}datasets/sample` },
      }),
    );
    try {
      const io = memoryIo();
      assert.equal(await main(["run", "--config", config], io, [runCommand]), 0, io.stderr());
      const cells = ["bm25+lexical", "bm25+mmr", "dense+lexical", "dense+mmr"];
      for (const c of cells) {
        assert.match(
          io.stderr(),
          new RegExp(`\\[rerank\\] rerank:${c.replace("+", "\\+")}: 500 rows`),
        );
        assert.match(io.stderr(), new RegExp(`\\[judge\\] judge:rag-${c.replace("+", "\\+")}: `));
      }
      const ws = await openWorkspace(`${dir}/ws`);
      try {
        // Provenance: offline cells call no model and record their wall time.
        const usage = await readRerankUsage(ws);
        assert.deepEqual(usage.map((u) => u.run), cells);
        for (const u of usage) {
          assert.equal(u.calls, 0);
          assert.equal(u.promptTokens, 0);
          assert.equal(u.costUsd, 0);
          assert.equal(u.offline, true);
          assert.equal(u.model, null);
          assert.ok(u.wallMs > 0 && u.wallMs < 600_000, `wall time ${u.wallMs}`);
        }
        assert.deepEqual(usage.map((u) => [u.source, u.reranker]), [
          ["bm25", "lexical"],
          ["bm25", "mmr"],
          ["dense", "lexical"],
          ["dense", "mmr"],
        ]);
        const info = await ws.query<{ run: string; kind: string; note: string | null }>(
          `SELECT run, kind, json_extract_string(params, '$.standIn') AS note FROM run_info
            WHERE run LIKE '%+%' ORDER BY run`,
        );
        assert.deepEqual(info.map((i) => i.kind), ["lexical", "mmr", "lexical", "mmr"]);
        assert.match(info[0].note!, /^offline stand-in for the model rerankers/);
        // The grid table: grouped by first stage, the first stage first; values are the stored means.
        const csv = (await Deno.readTextFile(`${dir}/ws/tables/grid_table.csv`)).trim().split("\n")
          .filter((l) => !l.startsWith("#"));
        const header = csv[0].split(",");
        const rows = csv.slice(1).map((l) => l.split(","));
        const col = (name: string) =>
          header.findIndex((h) => h === name || h.endsWith(` / ${name}`));
        const label = rows.map((r) => r[col("Run")]);
        assert.deepEqual(label, ["bm25", ...cells.slice(0, 2), "dense", ...cells.slice(2)]);
        const means = await ws.query<{ run: string; measure: string; value: number }>(
          `SELECT run, measure, value FROM measures WHERE topic_id = 'all' AND source = 'selection'
             AND measure IN ('Cov@oracle', 'alpha_nDCG@oracle')`,
        );
        const mean = (run: string, m: string) =>
          means.find((x) => x.run === run && x.measure === m)!.value;
        for (const r of rows) {
          const run = r[col("Run")];
          assert.equal(Number(r[col("Cov(Z)")]), mean(run, "Cov@oracle"), run);
          assert.equal(Number(r[col("α-nDCG")]), mean(run, "alpha_nDCG@oracle"), run);
          assert.equal(Number(r[col("Calls")]), 0);
        }
        // A reranked context differs from its first stage (the lexical cell reorders bm25).
        assert.notEqual(
          mean("bm25+lexical", "alpha_nDCG@oracle"),
          mean("bm25", "alpha_nDCG@oracle"),
        );
        // The main table lists each first stage followed by its cells.
        const main = io.stdout().split("Retrieval contexts and reports")[1];
        const order = ["bm25", ...cells.slice(0, 2), "dense", ...cells.slice(2)]
          .map((n) => main.indexOf(`\n${n} `));
        assert.ok(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1])), String(order));
        assert.match(io.stdout(), /lexical \(offline stand-in\)/);
        assert.match(io.stdout(), /lexical = offline stand-in for the model rerankers/);
      } finally {
        await ws.close();
      }
      // A re-run finds every stage up to date and keeps the recorded wall times.
      const again = memoryIo();
      assert.equal(await main(["run", "--config", config], again, [runCommand]), 0, again.stderr());
      assert.match(again.stderr(), /rerank:bm25\+lexical: up to date/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
