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
      assert.match(io2.stderr(), /\[retrieve\] retrieve:hybrid: \d+ rows/);
      assert.match(out, /Oracle context P\*/);
      assert.match(out, /Answerability threshold t = 3 vs 5/);
      assert.match(io2.stderr(), /\[rerank\] rerank:bm25-mmr: \d+ rows/);
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
      // A second run finds every stage up to date: nothing runs, nothing is written.
      const before = await Deno.readFile(`${dir}/ws/workspace.duckdb`);
      const io3 = memoryIo();
      assert.equal(await main(["run", "--config", config], io3, [runCommand]), 0);
      assert.match(io3.stdout(), /Stages: 0 ran, 38 up to date; nothing changed/);
      assert.match(io3.stderr(), /\[rerank\] rerank:bm25-mmr: up to date/);
      assert.deepEqual(await Deno.readFile(`${dir}/ws/workspace.duckdb`), before);
      // One changed parameter (BM25's k1) re-runs exactly what depends on it: bm25's
      // retrieval, the fusion and the reranking built on it, their reports, judgments
      // and measures, the statistics and the analyses. The dense run and the references stay.
      const cfg = JSON.parse(await Deno.readTextFile(config));
      cfg.retrieve[0].k1 = 1.2;
      await Deno.writeTextFile(config, JSON.stringify(cfg));
      const io4 = memoryIo();
      assert.equal(await main(["run", "--config", config], io4, [runCommand]), 0, io4.stderr());
      const ran = [
        ...io4.stderr().matchAll(/\] ([\w:.-]+): (new|params changed|upstream changed)/g),
      ]
        .map((m) => m[1]);
      assert.deepEqual(ran.sort(), [
        "analyze",
        "generate:rag-bm25",
        "generate:rag-bm25-mmr",
        "generate:rag-hybrid",
        "judge:rag-bm25",
        "judge:rag-bm25-mmr",
        "judge:rag-hybrid",
        "measure:bm25",
        "measure:bm25-mmr",
        "measure:contexts",
        "measure:human",
        "measure:hybrid",
        "measure:reports:rag-bm25",
        "measure:reports:rag-bm25-mmr",
        "measure:reports:rag-hybrid",
        "measure:samples",
        "rerank:bm25-mmr",
        "retrieve:bm25",
        "retrieve:hybrid",
        "statistics",
      ]);
      assert.match(io4.stderr(), /retrieve:bm25: params changed: k1: (0\.9|null) -> 1\.2/);
      assert.match(io4.stderr(), /retrieve:hybrid: upstream changed: retrieve:bm25/);
      assert.match(io4.stdout(), /Stages: 20 ran, 18 up to date/);
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
      assert.match(io.stdout(), /Stages: 6 ran, 0 up to date, 32 not started \(--until retrieve\)/);
      assert.doesNotMatch(io.stderr(), /\[generate\]/);
      // --until generate writes reports but judges none of them.
      const gen = memoryIo();
      assert.equal(
        await main(["run", "--config", config, "--until", "generate"], gen, [runCommand]),
        0,
        gen.stderr(),
      );
      assert.match(
        gen.stdout(),
        /Stages: 8 ran, 6 up to date, 24 not started \(--until generate\)/,
      );
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
        /--until "report" is not a stage; use one of dataset, construct, select, retrieve, rerank, generate, judge, measure, statistics, analyze/,
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

/**
 * The bundled offline config (every method) in a temporary folder: the config at
 * `<dir>/x/y/exp.json` so that its `../../datasets` paths reach the bundled data
 * through a link, and its workspace at `<dir>/ws`.
 */
async function sampleConfig(): Promise<{ dir: string; config: string }> {
  const dir = await Deno.makeTempDir({ prefix: "crux-run-" });
  const cfg = JSON.parse(
    await Deno.readTextFile(
      new URL("../../../notebooks/configs/sample-offline.json", import.meta.url),
    ),
  );
  await Deno.mkdir(`${dir}/x/y`, { recursive: true });
  await Deno.symlink(new URL("../../../datasets", import.meta.url).pathname, `${dir}/datasets`);
  const config = `${dir}/x/y/exp.json`;
  await Deno.writeTextFile(config, JSON.stringify({ ...cfg, name: "par", workspace: `${dir}/ws` }));
  return { dir, config };
}

/** Every file under `dir`, by path relative to it. */
async function files(dir: string, under = ""): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for await (const e of Deno.readDir(`${dir}/${under}`)) {
    const rel = under ? `${under}/${e.name}` : e.name;
    if (e.isDirectory) { for (const [k, v] of await files(dir, rel)) out.set(k, v); }
    else out.set(rel, await Deno.readFile(`${dir}/${rel}`));
  }
  return out;
}

Deno.test({
  name:
    "crux run --parallel: every method's stages at once give the same tables, files and rows as one at a time",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    // Both runs from one config and folder, so that paths stored in rows are the same.
    const { dir, config } = await sampleConfig();
    try {
      const ioOne = memoryIo();
      assert.equal(await main(["run", "--config", config], ioOne, [runCommand]), 0);
      await Deno.rename(`${dir}/ws`, `${dir}/one`);
      const ioFour = memoryIo();
      assert.equal(
        await main(["run", "--config", config, "--parallel", "4"], ioFour, [runCommand]),
        0,
        ioFour.stderr(),
      );
      const stages = /Stages: (\d+) ran, 0 up to date/.exec(ioOne.stdout())?.[1];
      assert.ok(Number(stages) > 50, ioOne.stdout());
      assert.match(ioFour.stdout(), new RegExp(`Stages: ${stages} ran, 0 up to date`));
      // Tables and figures, byte for byte.
      for (const sub of ["tables", "figures"]) {
        const [a, b] = [await files(`${dir}/one/${sub}`), await files(`${dir}/ws/${sub}`)];
        assert.ok(a.size > 20, `${a.size} ${sub}`);
        assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
        for (const [name, bytes] of a) assert.deepEqual(b.get(name), bytes, `${sub}/${name}`);
      }
      // Every row of every table (the memo's fingerprints too), but times: when and how long.
      const rows = async (ws: string) => {
        const w = await openWorkspace(ws, { readOnly: true });
        try {
          const out: Record<string, unknown[]> = {};
          const tables = await w.query<{ name: string }>(
            `SELECT table_name AS name FROM duckdb_tables() WHERE database_name = current_database()
             ORDER BY 1`,
          );
          for (const { name } of tables) {
            const cols = (await w.query<{ c: string }>(
              `SELECT column_name AS c FROM duckdb_columns()
               WHERE database_name = current_database() AND table_name = $1
                 AND data_type NOT LIKE 'TIMESTAMP%' AND column_name NOT IN ('wall_ms', 'latency_ms')
               ORDER BY column_index`,
              [name],
            )).map((r) => `"${r.c}"`);
            out[name] = await w.query(`SELECT ${cols.join(", ")} FROM "${name}" ORDER BY ALL`);
          }
          return out;
        } finally {
          w.close();
        }
      };
      const [a, b] = [await rows(`${dir}/one`), await rows(`${dir}/ws`)];
      assert.ok(Object.keys(a).length > 30);
      assert.ok(a.measures.length > 500, `${a.measures.length} measure rows`);
      for (const t of Object.keys(a)) assert.deepEqual(b[t], a[t], t);
      // Unchanged, it does nothing either way.
      const again = memoryIo();
      assert.equal(
        await main(["run", "--config", config, "--parallel", "4"], again, [runCommand]),
        0,
      );
      assert.match(
        again.stdout(),
        new RegExp(`Stages: 0 ran, ${stages} up to date; nothing changed`),
      );
      const bad = memoryIo();
      assert.equal(
        await main(["run", "--config", config, "--parallel", "0"], bad, [runCommand]),
        2,
      );
      assert.match(bad.stderr(), /--parallel "0" is not a count/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
