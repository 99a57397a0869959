/**
 * Ratings aligned to a run, as the CRUX-DUC release ships them, give the same
 * numbers through `crux eval --aligned-to`, through the workspace (`crux import
 * crux --aligned-to`, then `crux measure --relevance judgments`) and by hand from
 * the fixture's numbers; the workspace's selection keeps the topics and required
 * passages `crux construct select --aligned-to` keeps from the same file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { evalCommand } from "@lib/cli/commands/eval.ts";
import { importCommand } from "@lib/cli/commands/import.ts";
import { measureCommand } from "@lib/cli/commands/measure.ts";
import { constructCommand } from "@lib/cli/commands/construct.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { reportLabelTarget } from "@lib/formats/mod.ts";
import { topicPage } from "@lib/serve/topic_page.ts";
import { CRUX_STAGES, experimentStages, runStages } from "@lib/pipeline/mod.ts";
import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
import { testConfig } from "../pipeline/_config.ts";
import {
  type AlignedRelease,
  alignedReleaseExperiment,
  writeAlignedRelease,
} from "../support/aligned_release_fixture.ts";

const MEASURES = ["P@10", "nDCG@10", "alpha_nDCG@10", "Cov@10", "Cov@oracle"];
const COMMANDS = [evalCommand, importCommand, measureCommand, constructCommand];

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, out: io.stdout(), err: io.stderr() };
}

async function ok(args: string[]) {
  const r = await crux(args);
  assert.equal(r.code, 0, `crux ${args.join(" ")}\n${r.err}`);
  return r;
}

/** `crux eval` of the release's two run files with its ratings aligned to bm25, as JSON. */
function evalFiles(dir: string, ...extra: string[]) {
  const p = (name: string) => join(dir, name);
  return ok([
    "eval",
    "--run",
    p("bm25.run"),
    "--run",
    p("lancer.run"),
    "--judgments",
    p("ratings.json"),
    "--aligned-to",
    p("bm25.run"),
    ...extra,
    "-m",
    MEASURES.join(" "),
    "--format",
    "json",
  ]);
}

/** `crux construct select` from the release's ratings file into `qrels_pr.txt` and `qrels_div.txt`. */
function selectFromFile(dir: string) {
  const p = (name: string) => join(dir, name);
  return ok([
    "construct",
    "select",
    "--judgments",
    p("ratings.json"),
    "--aligned-to",
    p("bm25.run"),
    "--out-qrels",
    p("qrels_pr.txt"),
    "--out-div-qrels",
    p("qrels_div.txt"),
  ]);
}

/** Run -> measure -> mean, from a `--format json` evaluation of several runs. */
function means(json: string): Map<string, Record<string, number>> {
  const parsed = JSON.parse(json) as { runs: { run: string; aggregate: Record<string, number> }[] };
  return new Map(parsed.runs.map((r) => [r.run, r.aggregate]));
}

// ---- The measures by hand, from the fixture's lists (METRICS.md, ratings alone). ----

/** G(p, q) under topic t: the topic's own list, -1 as 0; a passage not rated under t rates 0. */
function rating(f: AlignedRelease, t: string, p: string, q: number): number {
  return Math.max(0, f.ratings.get(t)!.get(p)?.[q] ?? 0);
}

function relevant(f: AlignedRelease, t: string, p: string): boolean {
  return Array.from({ length: f.questions.get(t)! }, (_, q) => rating(f, t, p, q))
    .some((r) => r >= 3);
}

const discount = (rank: number) => 1 / Math.log2(rank + 1);

function alphaGain(f: AlignedRelease, t: string, p: string, seen: number[]): number {
  let g = 0;
  seen.forEach((n, q) => {
    if (rating(f, t, p, q) >= 3) g += 0.5 ** n;
  });
  return g;
}

function alphaDcg(f: AlignedRelease, t: string, ranking: readonly string[]): number {
  const seen = new Array(f.questions.get(t)!).fill(0);
  let dcg = 0;
  ranking.slice(0, 10).forEach((p, i) => {
    dcg += alphaGain(f, t, p, seen) * discount(i + 1);
    seen.forEach((_, q) => {
      if (rating(f, t, p, q) >= 3) seen[q]++;
    });
  });
  return dcg;
}

/** The ideal ranking: greedy by gain over the topic's rated passages, ties to the larger id. */
function alphaIdeal(f: AlignedRelease, t: string): string[] {
  const left = [...f.ratings.get(t)!.keys()];
  const seen = new Array(f.questions.get(t)!).fill(0);
  const out: string[] = [];
  while (left.length && out.length < 10) {
    let best = 0;
    for (let i = 1; i < left.length; i++) {
      const d = alphaGain(f, t, left[i], seen) - alphaGain(f, t, left[best], seen);
      if (d > 1e-12 || (Math.abs(d) <= 1e-12 && left[i] > left[best])) best = i;
    }
    const [p] = left.splice(best, 1);
    out.push(p);
    seen.forEach((_, q) => {
      if (rating(f, t, p, q) >= 3) seen[q]++;
    });
  }
  return out;
}

/** Per-topic values of one run; Cov is absent where no sub-question is answerable. */
function byHand(f: AlignedRelease, run: string, t: string): Record<string, number | undefined> {
  const ranking = f.runs.get(run)!.get(t)!;
  const rated = [...f.ratings.get(t)!.keys()];
  const top = ranking.slice(0, 10);
  const hits = top.filter((p) => relevant(f, t, p)).length;
  const dcg = top.reduce((s, p, i) => s + (relevant(f, t, p) ? discount(i + 1) : 0), 0);
  const all = rated.filter((p) => relevant(f, t, p)).length;
  const idcg = Array.from({ length: Math.min(all, 10) }, (_, i) => discount(i + 1))
    .reduce((a, b) => a + b, 0);
  const ideal = alphaDcg(f, t, alphaIdeal(f, t));
  const n = f.questions.get(t)!;
  const answerable = Array.from({ length: n }, (_, q) => q)
    .filter((q) => rated.some((p) => rating(f, t, p, q) >= 3));
  const cov = (k: number) =>
    answerable.filter((q) => ranking.slice(0, k).some((p) => rating(f, t, p, q) >= 3)).length /
    answerable.length;
  return {
    "P@10": hits / 10,
    "nDCG@10": idcg ? dcg / idcg : 0,
    "alpha_nDCG@10": ideal ? alphaDcg(f, t, ranking) / ideal : 0,
    "Cov@10": answerable.length ? cov(10) : undefined,
    "Cov@oracle": answerable.length ? cov(rated.length) : undefined,
  };
}

function handMeans(f: AlignedRelease, run: string): Record<string, number> {
  const rows = f.topics.map((t) => byHand(f, run, t));
  return Object.fromEntries(MEASURES.map((m) => {
    const values = rows.map((r) => r[m]).filter((v): v is number => v !== undefined);
    return [m, values.reduce((a, b) => a + b, 0) / values.length];
  }));
}

function assertClose(
  actual: Record<string, number>,
  expected: Record<string, number>,
  what: string,
) {
  for (const m of MEASURES) {
    assert.ok(
      Math.abs(actual[m] - expected[m]) < 1e-4,
      `${what}: ${m} is ${actual[m]}, expected ${expected[m]}`,
    );
  }
}

Deno.test("aligned ratings: crux eval, the workspace and a hand computation give the same numbers", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-aligned-" });
  try {
    const f = await writeAlignedRelease(dir);
    const p = (name: string) => join(dir, name);
    // The fixture holds the shapes it is for.
    const last = f.topics.at(-1)!;
    const twice = [...f.ratings.get(f.topics[0])!.keys()].filter((id) =>
      f.topics.slice(1).some((t) => f.ratings.get(t)!.has(id))
    );
    assert.ok(twice.length >= 2, "passages rated under two topics");
    assert.ok(
      [...f.ratings.get(last)!].every(([id, list]) =>
        !id.startsWith(`${last}:`) || list.every((r) => r < 3)
      ),
      "the last topic's own passages never reach 3",
    );
    assert.ok(f.files["ratings.json"].includes("-1"), "unparsable ratings");

    const hand = new Map(["bm25", "lancer"].map((run) => [run, handMeans(f, run)]));
    // (a) crux eval on the files.
    const evaluated = await evalFiles(dir);
    const fromFiles = means(evaluated.out);
    for (const run of ["bm25", "lancer"]) {
      assertClose(fromFiles.get(run)!, hand.get(run)!, `crux eval, ${run}`);
    }
    // P* from ratings alone is every rated passage, and the output says so.
    assert.match(evaluated.err, /^# P\* = every rated passage of each topic/m);
    // The aligned run's top |P*| is every rated passage: Cov@oracle 1.
    assert.equal(fromFiles.get("bm25")!["Cov@oracle"], 1);

    // (b) The workspace: import the release with the ratings aligned to bm25, then measure.
    const ws = p("ws");
    await ok([
      "import",
      "crux",
      "--workspace",
      ws,
      "--topics",
      p("topics.jsonl"),
      "--subquestions",
      p("subquestions.json"),
      "--corpus",
      p("corpus.jsonl"),
      "--judgments",
      p("ratings.json"),
      "--aligned-to",
      p("bm25.run"),
    ]);
    for (const run of ["bm25", "lancer"]) {
      await ok(["import", "run", "--workspace", ws, "--file", p(`${run}.run`), "--run", run]);
    }
    const measured = await ok([
      "measure",
      "--workspace",
      ws,
      "--run",
      "bm25",
      "--run",
      "lancer",
      "-m",
      MEASURES.join(" "),
      "--relevance",
      "judgments",
      "--format",
      "json",
    ]);
    const fromWorkspace = means(measured.out);
    for (const run of ["bm25", "lancer"]) {
      assert.deepEqual(fromWorkspace.get(run), fromFiles.get(run), `workspace = crux eval, ${run}`);
    }
    assert.match(measured.err, /^# P\* = every rated passage of each topic/m);
    // Every passage of bm25's top 10 is judged under its topic (no judged@10 warning).
    assert.doesNotMatch(measured.err, /bm25: judged@10/);

    // The selection: the workspace's and the file's keep the same topics and passages.
    await ok(["construct", "select", "--workspace", ws]);
    await selectFromFile(dir);
    const fileQrels = (await Deno.readTextFile(p("qrels_pr.txt"))).trim().split("\n")
      .map((l) => l.split(/\s+/)).map(([t, , d, g]) => `${t} ${d} ${g}`).sort();
    const store = await openWorkspace(ws, { readOnly: true });
    let storeQrels: string[];
    try {
      storeQrels = (await store.qrels("crux_pr")).map((q) => `${q.topicId} ${q.docId} ${q.grade}`)
        .sort();
    } finally {
      store.close();
    }
    assert.deepEqual(storeQrels, fileQrels);
    // Every topic is kept, the last one too (what it answers, passages of other
    // topics' documents answer), and a topic's qrels name only passages rated under it.
    const kept = new Set(storeQrels.filter((l) => l.endsWith(" 3")).map((l) => l.split(" ")[0]));
    assert.deepEqual([...kept].sort(), [...f.topics].sort());
    for (const line of storeQrels) {
      const [t, d] = line.split(" ");
      assert.ok(
        f.ratings.get(t)!.has(d),
        `${d} has a qrels line for ${t} but is not rated under it`,
      );
    }
    // The explorer's topic page shows the last topic's own ratings of the passage it
    // borrowed (5 on its first sub-question; the owner rated it 0 or 1), and every
    // passage of bm25's top 10 as judged.
    const borrowed = f.runs.get("bm25")!.get(last)!.find((id) =>
      f.ratings.get(last)!.get(id)![0] === 5 && !id.startsWith(`${last}:`)
    )!;
    const view = await openWorkspace(ws, { readOnly: true });
    try {
      const page = (await topicPage(view, last))!;
      assert.match(page, new RegExp(`title="${last}#q1: 5">5</td>`));
      assert.match(page, /judged@10: 1\.00 \(10 of 10 retrieved rated\)/);
      assert.ok(page.includes(borrowed));
    } finally {
      view.close();
    }
    const lastRequired = storeQrels.filter((l) => l.startsWith(`${last} `) && l.endsWith(" 3"));
    assert.ok(lastRequired.every((l) => !l.split(" ")[1].startsWith(`${last}:`)));
    assert.ok(lastRequired.length > 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("report runs import as generations the human labels' ids name", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-reports-" });
  try {
    const f = await writeAlignedRelease(dir);
    const ws = join(dir, "ws");
    await ok([
      "import",
      "crux",
      "--workspace",
      ws,
      "--topics",
      join(dir, "topics.jsonl"),
      "--reports",
      join(dir, "reports.jsonl"),
    ]);
    const store = await openWorkspace(ws, { readOnly: true });
    try {
      const gens = await store.generations();
      assert.equal(gens.length, 2 * f.topics.length);
      const topics = new Set(f.topics);
      // bm25_{qid} is the report of run rag-bm25 on qid; the topic id alone the oracle context's.
      const bm25 = reportLabelTarget(`bm25_${f.topics[2]}`, topics)!;
      const oracle = reportLabelTarget(f.topics[2], topics)!;
      const find = (t: { run: string; topicId: string }) =>
        gens.find((g) => g.run === t.run && g.topicId === t.topicId);
      assert.deepEqual(
        { ...find(bm25), tokens: undefined },
        {
          run: "rag-bm25",
          topicId: f.topics[2],
          text: `The bm25 report of ${f.topics[2]}.`,
          condition: "rag",
          backend: "import:reports.jsonl",
          contextIds: f.runs.get("bm25")!.get(f.topics[2])!.slice(0, 3),
          tokens: undefined,
        },
      );
      assert.equal(find(oracle)?.condition, "oracle-context");
      assert.deepEqual(find(oracle)?.contextIds, f.runs.get("bm25")!.get(f.topics[2])!.slice(3, 6));
      const [topic] = (await store.topics()).filter((t) => t.topicId === f.topics[2]);
      assert.equal(topic.summary, `The human summary of ${f.topics[2]}.`);
      const info = await store.query<{ run: string; contextRun: string | null }>(
        "SELECT run, context_run FROM generation_info ORDER BY run",
      );
      assert.deepEqual(info, [
        { run: "oracle-context", contextRun: null },
        { run: "rag-bm25", contextRun: "bm25" },
      ]);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("aligned ratings through an experiment's stages: the selection and the stored measures are crux eval's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-aligned-run-" });
  try {
    await writeAlignedRelease(dir);
    const p = (name: string) => join(dir, name);
    const config = testConfig({ ...alignedReleaseExperiment(dir), measures: MEASURES });
    const stages = ["dataset", "construct", "select", "retrieve", "measure"];
    const ws = await openWorkspace(p("ws"));
    let stored: { run: string; measure: string; value: number }[];
    try {
      // Up to the runs' measures (the contexts of generated reports are not needed here).
      const specs = (await experimentStages(config, { methods: METHOD_REGISTRY })).filter((s) =>
        stages.includes(s.stage) && (s.stage !== "measure" || /^measure:(bm25|lancer)$/.test(s.id))
      );
      await runStages(ws, specs, { order: CRUX_STAGES });
      stored = await ws.query(
        `SELECT run, measure, value FROM measures
         WHERE topic_id = 'all' AND source = 'selection' AND run IN ('bm25', 'lancer')`,
      );
    } finally {
      ws.close();
    }
    // crux eval with the selection made from the same file by crux construct select.
    await selectFromFile(dir);
    const evaluated = means(
      (await evalFiles(dir, "--qrels", p("qrels_pr.txt"), "--div-qrels", p("qrels_div.txt")))
        .out,
    );
    for (const run of ["bm25", "lancer"]) {
      const mine = Object.fromEntries(
        stored.filter((r) => r.run === run).map((r) => [r.measure, r.value]),
      );
      assertClose(mine, evaluated.get(run)!, `measure stage, ${run}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
