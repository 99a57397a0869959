import assert from "node:assert/strict";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { constructCommand } from "./construct.ts";
import { generateCommand } from "./generate.ts";
import { judgeReportsCommand } from "./judge_reports.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { tinyWorkspaceDir } from "../../../tests/pipeline/_tiny.ts";
import { startOpenAiServer } from "../../../tests/support/openai_server.ts";

const judge = { ...judgeReportsCommand, name: "judge" }; // stands in for `crux judge reports`

const run = async (args: string[]) => {
  const io = memoryIo();
  const code = await main(args, io, [constructCommand, generateCommand, judge]);
  return { code, out: io.stdout(), err: io.stderr() };
};

Deno.test("crux generate: usage errors", async () => {
  assert.match(
    (await run(["generate", "--run", "x", "--direct"])).err,
    /--workspace DIR is required/,
  );
  const both = await run(["generate", "--workspace", "w", "--run", "x", "--direct", "--oracle"]);
  assert.equal(both.code, 2);
  assert.match(both.err, /exactly one of --context RUN, --direct or --oracle/);
  assert.match(
    (await run(["generate", "--workspace", "w", "--run", "oracle-result", "--oracle"])).err,
    /reserved/,
  );
});

Deno.test("crux generate + crux judge reports offline: stored reports and coverage table", async () => {
  const dir = await tinyWorkspaceDir();
  try {
    assert.equal((await run(["construct", "all", "--workspace", dir, "--n", "4"])).code, 0);
    const none = await run(["generate", "--workspace", dir, "--run", "g", "--context", "bm25"]);
    assert.equal(none.code, 1);
    assert.match(none.err, /no run "bm25"; import or retrieve it first/);

    // A hand-made run: for each topic, its second passage first.
    const ws = await openWorkspace(dir);
    await ws.upsert("runs", [
      { run: "hand", topicId: "tiny-1", docId: "tiny-1:1#1", rank: 1, score: 2 },
      { run: "hand", topicId: "tiny-1", docId: "tiny-1:0#0", rank: 2, score: 1 },
      { run: "hand", topicId: "tiny-2", docId: "tiny-2:1#1", rank: 1, score: 2 },
      { run: "hand", topicId: "tiny-2", docId: "tiny-2:0#0", rank: 2, score: 1 },
    ]);
    const k = await ws.query<{ topicId: string; k: number }>(
      "SELECT topic_id, CAST(count(*) AS INTEGER) AS k FROM qrels WHERE name = 'crux_pr' AND grade = 3 GROUP BY ALL ORDER BY 1",
    );
    ws.close();

    const g = await run(["generate", "--workspace", dir, "--run", "hand-ext", "--context", "hand"]);
    assert.equal(g.code, 0, g.err);
    assert.match(
      g.out,
      /2 rag reports by extractive stored as run "hand-ext", 0 already there; 2 human summaries/,
    );
    const again = await run([
      "generate",
      "--workspace",
      dir,
      "--run",
      "hand-ext",
      "--context",
      "hand",
    ]);
    assert.match(
      again.out,
      /0 rag reports by extractive stored as run "hand-ext", 2 already there/,
    );

    const ws2 = await openWorkspace(dir);
    const gens = await ws2.generations({ run: "hand-ext" });
    ws2.close();
    for (const gen of gens) {
      const expected = gen.topicId === "tiny-1"
        ? ["tiny-1:1#1", "tiny-1:0#0"]
        : ["tiny-2:1#1", "tiny-2:0#0"];
      assert.deepEqual(
        gen.contextIds,
        expected.slice(0, k.find((x) => x.topicId === gen.topicId)!.k),
      );
    }

    const j = await run(["judge", "--workspace", dir]);
    assert.equal(j.code, 0, j.err);
    const lines = j.out.trim().split("\n").map((l) => l.split("\t"));
    assert.deepEqual(lines[0], [
      "run",
      "topics",
      "Cov_report",
      "Den_report",
      "Cov_context",
      "Den_context",
    ]);
    assert.deepEqual(lines.slice(1).map((l) => [l[0], l[1]]), [["hand-ext", "2"], [
      "oracle-result",
      "2",
    ]]);
    assert.equal(lines[2][4], "-", "the human summary has no retrieval context");
    assert.match(j.err, /new ratings by lexical/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux generate and crux judge reports: model flags conflict with an offline backend", async () => {
  const gen = ["generate", "--workspace", "w", "--run", "x", "--direct"];
  const cases: [string[], RegExp][] = [
    [
      [...gen, "--backend", "extractive", "--model", "gpt-4o"],
      /--backend extractive conflicts with --model: the extractive backend makes no model calls; drop those flags or use --backend openai/,
    ],
    [
      [...gen, "--backend", "offline", "--base-url", "http://127.0.0.1:9/v1", "--rpm", "5"],
      /--backend offline conflicts with --base-url, --rpm: the extractive backend/,
    ],
    [
      [...gen, "--concurrency", "2"],
      /--concurrency only configures model calls, but the default backend is extractive \(offline\); add --model M or --backend openai, or drop it/,
    ],
    [[...gen, "--backend", "gpt"], /Unknown backend "gpt": use openai, extractive or offline/],
    [
      ["judge", "--workspace", "w", "--backend", "lexical", "--model", "gpt-4o"],
      /--backend lexical conflicts with --model: the lexical backend makes no model calls/,
    ],
    [
      ["judge", "--workspace", "w", "--templates", "t", "--config", "c.json"],
      /--templates, --config only configure model calls, but the default backend is lexical/,
    ],
  ];
  for (const [args, message] of cases) {
    const r = await run(args);
    assert.equal(r.code, 2, args.join(" "));
    assert.match(r.err, message);
  }
});

Deno.test("crux generate and crux judge reports: --model and --base-url select the model backend", async () => {
  await using server = startOpenAiServer({ chat: () => ({ content: "4" }) });
  const dir = await tinyWorkspaceDir();
  try {
    assert.equal((await run(["construct", "all", "--workspace", dir, "--n", "4"])).code, 0);
    const model = ["--base-url", server.url];
    const g = await run(
      ["generate", "--workspace", dir, "--run", "m", "--direct", "--model", "gen-m", ...model],
    );
    assert.equal(g.code, 0, g.err);
    assert.match(g.out, /2 direct reports by gen-m stored as run "m"/);
    // A model answering "4" to everything is flagged, not silently scored.
    assert.match(g.out, /flagged: 2 only a number \(not usable as reports\)/);
    assert.match(g.err, /Run "m": 2 only a number of 2 reports/);
    assert.equal(server.requests, 2, "one generation call per topic");
    const j = await run([
      "judge",
      "--workspace",
      dir,
      "--run",
      "m",
      "--model",
      "judge-m",
      ...model,
    ]);
    assert.equal(j.code, 0, j.err);
    assert.match(j.err, /judge reports: \d+ new ratings by judge-m/);
    assert.ok(server.requests > 2, "the judge called the model");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux generate --budget-cap: clipped topics are named; the default 2,500 leaves small budgets alone", async () => {
  const dir = await tinyWorkspaceDir();
  try {
    assert.equal((await run(["construct", "all", "--workspace", dir, "--n", "4"])).code, 0);
    const plain = await run(["generate", "--workspace", dir, "--run", "o1", "--oracle"]);
    assert.equal(plain.code, 0, plain.err);
    assert.doesNotMatch(plain.err, /-token cap/);
    const capped = await run([
      "generate",
      "--workspace",
      dir,
      "--run",
      "o2",
      "--oracle",
      "--budget-cap",
      "5",
    ]);
    assert.match(capped.err, /^\d+ of \d+ topics have an oracle budget above the 5-token cap/m);
    const bad = await run([
      "generate",
      "--workspace",
      dir,
      "--run",
      "o3",
      "--oracle",
      "--budget-cap",
      "x",
    ]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--budget-cap expects an integer >= 0, got "x"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
