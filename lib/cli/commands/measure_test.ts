import assert from "node:assert/strict";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { measureCommand } from "./measure.ts";
import { evaluate, formatEvaluation } from "@lib/metrics/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { CRUX_STAGES, experimentStages, runStages, workspaceJudged } from "@lib/pipeline/mod.ts";
import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
import { testConfig } from "../../../tests/pipeline/_config.ts";

const MEASURES = "P@10 nDCG@10 alpha_nDCG@oracle Cov@10 Den@oracle";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(["measure", ...args], io, [measureCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

/** A workspace folder with the bundled sample, its selection and a BM25 run. */
async function sampleDir(k = 100): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "crux-measure-" });
  const config = testConfig({
    workspace: dir,
    dataset: { source: "sample", dir: "datasets/sample" },
    retrieve: [{ name: "bm25", k }],
  });
  const ws = await openWorkspace(dir);
  try {
    await runStages(ws, await experimentStages(config, { methods: METHOD_REGISTRY }), {
      order: CRUX_STAGES,
      until: "retrieve",
    });
  } finally {
    ws.close();
  }
  return dir;
}

/** What crux eval prints for the workspace's run and judgments, from a fresh evaluation. */
async function evaluated(
  dir: string,
  format: "json" | "table" | "csv",
  opts: { tau?: number; source?: "selection" | "judgments" } = {},
) {
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    const { inputs } = await workspaceJudged(ws, { source: opts.source });
    const result = evaluate(await ws.runRows("bm25"), MEASURES.split(" "), inputs, {
      tau: opts.tau ?? 3,
    });
    return formatEvaluation(result, format, { perQuery: true });
  } finally {
    ws.close();
  }
}

Deno.test("crux measure prints what a fresh evaluation prints; the second run reuses every value and says so", async () => {
  const dir = await sampleDir();
  try {
    const args = ["--workspace", dir, "--run", "bm25", "-m", MEASURES, "--per-query"];
    const first = await crux([...args, "--format", "json"]);
    assert.equal(first.code, 0, first.err);
    assert.equal(first.out, await evaluated(dir, "json"));
    assert.match(
      first.err,
      /^# bm25: 0 measures reused, 5 computed \(no values stored before\)$/m,
    );
    // The notes of crux eval for the same inputs: every measure averaged 10 topics.
    assert.match(first.err, /^# bm25: 10 topics evaluated \(run ∩ judged\); averaged: 10$/m);
    assert.match(first.err, /^# tokens counted with the llama3.1 tokenizer$/m);
    const second = await crux([...args, "--format", "json"]);
    assert.equal(second.code, 0, second.err);
    assert.equal(second.out, first.out);
    assert.match(
      second.err,
      /^# bm25: 5 measures reused, 0 computed \(inputs unchanged since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/m,
    );
    // Table and CSV, reused, are the fresh evaluation's too.
    for (const format of ["table", "csv"] as const) {
      const r = await crux([...args, "--format", format]);
      assert.equal(r.code, 0, r.err);
      const printed = format === "table" ? r.out.replace(/^#.*\n/gm, "") : r.out;
      assert.equal(printed, await evaluated(dir, format));
      if (format === "table") assert.match(r.out, /5 measures reused, 0 computed/);
    }
    // A new tau: Cov and Den are new keys; relevance from the selection's qrels is
    // evaluated again at the new tau.
    const at4 = await crux([...args, "--tau", "4", "--format", "json"]);
    assert.equal(at4.code, 0, at4.err);
    assert.equal(at4.out, await evaluated(dir, "json", { tau: 4 }));
    assert.match(at4.err, /0 measures reused, 5 computed \(inputs unchanged since/);
    // Relevance from the ratings alone: P* differs, so nothing is reused.
    const judgments = await crux([...args, "--relevance", "judgments", "--format", "json"]);
    assert.equal(judgments.out, await evaluated(dir, "json", { source: "judgments" }));
    assert.match(judgments.err, /0 measures reused, 5 computed/);
    // A changed rating discards the run's values.
    const ws = await openWorkspace(dir);
    try {
      await ws.exec(
        `UPDATE ratings SET rating = 5 - rating WHERE (item_id, question_id) IN
           (SELECT item_id, question_id FROM ratings JOIN rated_items USING (topic_id, item_id, judge)
            WHERE item_kind = 'passage' ORDER BY ALL LIMIT 1)`,
      );
    } finally {
      ws.close();
    }
    const changed = await crux([...args, "--format", "json"]);
    assert.equal(changed.out, await evaluated(dir, "json"));
    assert.notEqual(changed.out, first.out);
    assert.match(
      changed.err,
      /0 measures reused, 5 computed \(inputs changed: earlier values discarded\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux measure words judged@k as crux eval does, counting what a short run retrieved", async () => {
  const dir = await sampleDir(5);
  try {
    const r = await crux(["--workspace", dir, "--run", "bm25", "-m", "P@10", "--format", "json"]);
    assert.equal(r.code, 0, r.err);
    // Five passages per topic: judged@10 divides by 10, the note counts the five retrieved.
    const m = r.err.match(
      /^# bm25: judged@10 (\d\.\d{4}): 10 of 10 topics have fewer than 10 documents, 5\.0 retrieved per topic in the top 10 \(judged@10 divides by 10\); (\d+\.\d)% of the retrieved ones have no judgment/m,
    );
    assert.ok(m, r.err);
    // judged@10 = judged / 10 per topic, so the unjudged share of the five is 1 - 2 * judged@10.
    assert.equal(Number(m[2]), Math.round((1 - 2 * Number(m[1])) * 1000) / 10);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux measure --help says stored values with unchanged inputs are reused", async () => {
  const io = memoryIo();
  assert.equal(await main(["measure", "--help"], io, [measureCommand]), 0);
  assert.match(
    io.stdout().replace(/\s+/g, " "),
    /Values already stored are reused while their inputs are unchanged/,
  );
});

Deno.test("crux measure says why alpha-nDCG has no value without diversity qrels, and what to do", async () => {
  const dir = await sampleDir();
  try {
    const ws = await openWorkspace(dir);
    try {
      await ws.exec("DELETE FROM qrels WHERE name = 'crux_div'");
    } finally {
      ws.close();
    }
    const r = await crux(["--workspace", dir, "--run", "bm25", "-m", "alpha_nDCG@10 P@10"]);
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /^# bm25: alpha_nDCG@10 cannot be computed: the workspace has no diversity qrels \(crux_div\) of a selection; run the select stage \(crux construct select\) or pass --relevance judgments$/m,
    );
    assert.doesNotMatch(r.out, /P@10 cannot be computed/);
    const judged = await crux([
      "--workspace",
      dir,
      "--run",
      "bm25",
      "-m",
      "alpha_nDCG@10",
      "--relevance",
      "judgments",
    ]);
    assert.doesNotMatch(judged.out, /cannot be computed/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
