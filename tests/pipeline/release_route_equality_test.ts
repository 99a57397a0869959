/**
 * Route equality on release-format files with the awkward cases: passages
 * missing from the corpus, unrated passages, and a topic the selection drops.
 * `crux eval` and `crux measure` give identical values for P, nDCG, alpha-nDCG
 * and Cov, and both refuse Den with the name of a missing passage.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { runCruxExperiment } from "../../lib/experiment/mod.ts";
import { parseExperimentConfig } from "../../lib/experiment/mod.ts";

const root = new URL("../../", import.meta.url).pathname;
const fixtures = join(root, "tests", "golden", "crux", "fixtures");
const MEASURES = "P@10 nDCG@10 alpha_nDCG@10 Cov@10 Cov@oracle RR";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, out: io.stdout(), err: io.stderr() };
}

Deno.test({
  name:
    "release-format files with missing and unrated passages and a dropped topic: eval = measure",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const p = (n: string) => join(dir, n);
    // Two passages that the run retrieves are left out of the corpus.
    const run = await Deno.readTextFile(join(fixtures, "runs", "bm25.run"));
    const missing = run.split("\n").slice(0, 2).map((l) => l.split(" ")[2]);
    const corpus = (await Deno.readTextFile(join(fixtures, "corpus.jsonl"))).split("\n")
      .filter((l) => l.trim() && !missing.some((m) => l.includes(`"${m}"`)));
    await Deno.writeTextFile(p("corpus.jsonl"), corpus.join("\n") + "\n");
    // One topic's ratings capped at 2: nothing is answerable, selection drops it.
    const dropped = "multi_news-test-107";
    const judgments = (await Deno.readTextFile(join(fixtures, "judgments.jsonl"))).split("\n")
      .filter((l) => l.trim()).map((l) => {
        const j = JSON.parse(l);
        if (j.id === dropped) j.rating = j.rating.map((r: number) => Math.min(r, 2));
        return JSON.stringify(j);
      });
    await Deno.writeTextFile(p("judgments.jsonl"), judgments.join("\n") + "\n");
    await Deno.writeTextFile(p("bm25.run"), run);
    const config = parseExperimentConfig(
      JSON.stringify({
        name: "release-routes",
        workspace: p("ws"),
        dataset: {
          source: "crux",
          corpus: p("corpus.jsonl"),
          topics: join(fixtures, "topics.jsonl"),
          judgments: p("judgments.jsonl"),
          subquestions: join(fixtures, "subquestions.json"),
        },
        backend: "offline",
        retrieve: [{ name: "bm25", kind: "file", path: p("bm25.run") }],
        generate: [],
      }),
      { file: p("config.json"), root },
    );
    const events: string[] = [];
    await runCruxExperiment(config, { until: "measure", onEvent: (e) => events.push(e.message) });
    assert.ok(
      events.some((m) => m.includes(`Topic "${dropped}"`) && m.includes("dropped")),
      events.join("\n"),
    );
    assert.ok(
      events.some((m) => /20 passages have no rating/.test(m)),
      "unrated passages are counted",
    );
    for (const [name, file] of [["crux_pr", "pr.txt"], ["crux_div", "div.txt"]]) {
      const r = await crux([
        "export",
        "--workspace",
        p("ws"),
        "--table",
        "qrels",
        "--name",
        name,
        "--format",
        "trec",
        "--out",
        p(file),
      ]);
      assert.equal(r.code, 0, r.err);
    }
    const viaEval = await crux([
      "eval",
      "--run",
      `${p("bm25.run")}=bm25`,
      "--qrels",
      p("pr.txt"),
      "--div-qrels",
      p("div.txt"),
      "--judgments",
      p("judgments.jsonl"),
      "-m",
      MEASURES,
      "--format",
      "json",
    ]);
    assert.equal(viaEval.code, 0, viaEval.err);
    const viaMeasure = await crux([
      "measure",
      "--workspace",
      p("ws"),
      "--run",
      "bm25",
      "-m",
      MEASURES,
      "--format",
      "json",
    ]);
    assert.equal(viaMeasure.code, 0, viaMeasure.err);
    assert.deepEqual(JSON.parse(viaMeasure.out).aggregate, JSON.parse(viaEval.out).aggregate);
    // Density needs the missing passages' tokens: both routes refuse and name one.
    const denMeasure = await crux([
      "measure",
      "--workspace",
      p("ws"),
      "--run",
      "bm25",
      "-m",
      "Den@10",
    ]);
    assert.equal(denMeasure.code, 1);
    assert.match(
      denMeasure.err,
      new RegExp(`passage "(${missing.join("|")})" is not in the workspace's passages`),
    );
    const denEval = await crux([
      "eval",
      "--run",
      p("bm25.run"),
      "--qrels",
      p("pr.txt"),
      "--judgments",
      p("judgments.jsonl"),
      "--corpus",
      p("corpus.jsonl"),
      "--tokenizer",
      "whitespace",
      "-m",
      "Den@10",
    ]);
    assert.equal(denEval.code, 1);
    assert.match(
      denEval.err,
      new RegExp(`Cannot count tokens of "(${missing.join("|")})": it is not in the corpus`),
    );
    await Deno.remove(dir, { recursive: true });
  },
});
