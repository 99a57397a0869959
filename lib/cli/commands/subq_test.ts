import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { subqCommand } from "./subq.ts";
import { readTypedCoverage } from "@lib/formats/mod.ts";
import { subqMeasureRows } from "@lib/subq/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";

async function run(args: string[]) {
  const io = memoryIo();
  const code = await main(["subq", ...args], io, [subqCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

const line = (
  system: string,
  q: string,
  sub: string,
  type: string,
  answered: boolean,
  extra = {},
) => JSON.stringify({ question_id: q, sub_question: sub, type, system, answered, ...extra });

Deno.test("crux subq score: #1-#6, all, counts and the rating by hand; missing inputs are null", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "cov.jsonl");
  const a = (sub: string, type: string, ans: boolean, ret: boolean, share?: number, pos?: number) =>
    line("A", "q1", sub, type, ans, {
      retrieved: ret,
      ...(share !== undefined ? { chunk_share: share } : {}),
      ...(pos !== undefined ? { position: pos } : {}),
    });
  await Deno.writeTextFile(
    file,
    [
      a("c1", "core", true, true, 0.5, 10),
      a("c2", "core", true, false, 0, 30),
      a("c3", "core", false, true, 0.25),
      a("c4", "core", false, false, 0),
      a("b1", "background", true, true, undefined, 50),
      a("b2", "background", false, false),
      a("f1", "follow-up", true, false, undefined, 90),
      a("f2", "follow-up", false, true),
      line("B", "q1", "c1", "core", true),
      line("B", "q1", "c2", "core", false),
      line("B", "q2", "c1", "core", true),
      line("B", "q2", "b1", "background", true),
    ].join("\n") + "\n",
  );
  const r = await run(["score", "--judgments", file, "--format", "json"]);
  assert.equal(r.code, 0, r.err);
  const { A, B } = JSON.parse(r.out).systems;
  assert.deepEqual(A.answered, { core: 0.5, background: 0.5, "follow-up": 0.5, all: 0.5 });
  assert.deepEqual(A.retrieved, { core: 0.5, background: 0.5, "follow-up": 0.5, all: 0.5 });
  assert.deepEqual(A.counts, { core: 4, background: 2, "follow-up": 2 });
  // #3 (1/4)/(2/4); #4 (1/4)/(2/4); #5 mean(0.5, 0) - mean(0.25, 0); #6 90 - (20 + 50)/2.
  assert.deepEqual(A.metrics, { m3: 0.5, m4: 0.5, m5: 0.125, m6: 55 });
  // Rating 1 x 0.5 + 0.5 x 0.5 - 1 x 0.5.
  assert.equal(A.rating, 0.25);
  assert.deepEqual(B.answered, { core: 2 / 3, background: 1, "follow-up": null, all: 0.75 });
  assert.equal(B.retrieved, undefined);
  assert.deepEqual(B.metrics, { m3: null, m4: null, m5: null, m6: null });
  // q1: core 1/2 -> 0.5; q2: core 1 + background 0.5 x 1 -> 1.5; mean 1.
  assert.equal(B.rating, 1);
  const table = await run(["score", "--judgments", file]);
  assert.match(table.out, /^B\s+0\.6667\s+1\.0000\s+-\s+0\.7500\s+-\s+-\s+-\s+-\s+-\s+1\.0000$/m);
  // Every header stands apart from its neighbours, the longest (ans_background) included.
  assert.deepEqual(table.out.split("\n")[0].trim().split(/\s+/), [
    "system",
    "ans_core",
    "ans_background",
    "ans_followup",
    "ans_all",
    "ret_core",
    "m3",
    "m4",
    "m5",
    "m6",
    "rating",
  ]);
});

Deno.test("crux subq score: malformed and repeated lines are named", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "bad.jsonl");
  await Deno.writeTextFile(file, line("A", "q1", "c1", "central", true) + "\n");
  const bad = await run(["score", "--judgments", file]);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /bad\.jsonl:1: type: expected one of core, background, follow-up/);
  await Deno.writeTextFile(
    file,
    line("A", "q1", "c1", "core", true) + "\n" + line("A", "q1", "c1", "core", false) + "\n",
  );
  const twice = await run(["score", "--judgments", file]);
  assert.equal(twice.code, 1);
  assert.match(
    twice.err,
    /bad\.jsonl:2: sub_question: system "A" on sub-question "c1" of "q1" is already on line 1 with other content/,
  );
  // An exact repeat is dropped and said: the scores are those of the single line.
  await Deno.writeTextFile(file, (line("A", "q1", "c1", "core", true) + "\n").repeat(2));
  const exact = await run(["score", "--judgments", file, "--format", "json"]);
  assert.equal(exact.code, 0, exact.err);
  assert.match(exact.err, /bad\.jsonl: 1 identical repeated lines dropped/);
  assert.equal(JSON.parse(exact.out).systems.A.answered.core, 1);
});

Deno.test("crux subq decompose | classify | judge | score offline, from files", async () => {
  const dir = await Deno.makeTempDir();
  const p = (f: string) => join(dir, f);
  const question = "Why did the Alder Dam fail in May?";
  await Deno.writeTextFile(p("q.jsonl"), JSON.stringify({ question }) + "\n");
  const d = await run(["decompose", "--questions", p("q.jsonl"), "--n", "3", "--out", p("d.json")]);
  assert.equal(d.code, 0, d.err);
  const dec = JSON.parse(await Deno.readTextFile(p("d.json")));
  assert.deepEqual(dec[0].sub_questions, ["What happened with Alder Dam fail?"]); // one phrase only
  assert.equal(dec[0].backend, "noun-phrase templates (offline)");
  // A hand-written decomposition, typed offline (the heuristic), then judged.
  await Deno.writeTextFile(
    p("d.json"),
    JSON.stringify([{
      question,
      sub_questions: ["Why did the Alder Dam fail?", "What will the town rebuild next?"],
    }]),
  );
  const c = await run(["classify", "--decompositions", p("d.json"), "--out", p("typed.json")]);
  assert.equal(c.code, 0, c.err);
  const typed = JSON.parse(await Deno.readTextFile(p("typed.json")));
  assert.deepEqual(typed[0].sub_questions_with_types.map((s: { type: string }) => s.type), [
    "core",
    "follow-up",
  ]);
  await Deno.writeTextFile(
    p("answers.jsonl"),
    JSON.stringify({
      run_id: "sys",
      topic_id: "t1",
      topic: question,
      references: ["d1", "d2"],
      answer: [{ text: "Heavy rain fell. The Alder Dam failed because of rain.", citations: [0] }],
    }) + "\n",
  );
  await Deno.writeTextFile(
    p("corpus.jsonl"),
    '{"id": "d1", "contents": "The Alder Dam failed."}\n{"id": "d2", "contents": "Rain."}\n',
  );
  const j = await run([
    "judge",
    "--decompositions",
    p("typed.json"),
    "--answers",
    p("answers.jsonl"),
    "--corpus",
    p("corpus.jsonl"),
    "--out",
    p("cov.jsonl"),
  ]);
  assert.equal(j.code, 0, j.err);
  const lines = (await Deno.readTextFile(p("cov.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  // Core: answered by the second sentence (word 3 of 10 -> 30 %), chunk d1 of 2 answers it.
  assert.deepEqual(lines[0], {
    question_id: "t1",
    sub_question: "Why did the Alder Dam fail?",
    type: "core",
    system: "sys",
    answered: true,
    judge: "lexical coverage (offline)",
    retrieved: true,
    chunk_share: 0.5,
    position: 30,
  });
  assert.equal(lines[1].answered, false);
  // Judgments made elsewhere (coverage judgment files) replace the judging of the answer.
  await Deno.mkdir(p("cov/sys"), { recursive: true });
  await Deno.writeTextFile(
    p("cov/sys/t1.json"),
    JSON.stringify([
      {
        question: "Why did the Alder Dam fail?",
        judgment: "answered",
        text_span: "heavy RAIN fell",
      },
      {
        question: "What will the town rebuild next?",
        judgment: "answered",
        text_span: "a new dam",
      },
    ]),
  );
  const imported = await run([
    "judge",
    "--decompositions",
    p("typed.json"),
    "--answers",
    p("answers.jsonl"),
    "--coverage",
    p("cov"),
  ]);
  assert.equal(imported.code, 0, imported.err);
  const il = imported.out.trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(il.map((l) => [l.answered, l.position ?? null]), [[true, 0], [true, null]]);
  assert.match(imported.err, /1 answering spans are not in their answer/);
  const s = await run(["score", "--judgments", p("cov.jsonl"), "--format", "json"]);
  const sys = JSON.parse(s.out).systems.sys;
  assert.deepEqual(sys.answered, { core: 1, background: null, "follow-up": 0, all: 0.5 });
  assert.equal(sys.rating, 1);
});

Deno.test("crux subq compare: preference accuracies and the win-rate matrix, offline", async () => {
  const dir = await Deno.makeTempDir();
  const p = (f: string) => join(dir, f);
  const q = "Why did the Alder Dam fail?";
  const good = "The Alder Dam failed after heavy rain.";
  const poor = "The town has a museum.";
  await Deno.writeTextFile(
    p("prefs.jsonl"),
    [
      { question: q, answer_a: good, answer_b: poor, preference: 1 },
      { question: q, answer_a: poor, answer_b: good, preference: -0.5 },
      { question: q, answer_a: poor, answer_b: good, preference: 0 },
    ].map((x) => JSON.stringify(x)).join("\n") + "\n",
  );
  const r = await run(["compare", "--preferences", p("prefs.jsonl"), "--format", "json"]);
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out);
  assert.deepEqual([out.labelled, out.pairs, out.hybrid, out.pairwise], [2, 3, 1, 1]);
  assert.match(out.backend, /offline/);
  await Deno.writeTextFile(
    p("typed.json"),
    JSON.stringify([{
      question: q,
      sub_questions_with_types: [{ sub_question: "Why did the Alder Dam fail?", type: "core" }],
    }]),
  );
  const answers = (run: string, text: string) =>
    JSON.stringify({
      run_id: run,
      topic_id: "t1",
      topic: q,
      references: [],
      answer: [{ text, citations: [] }],
    }) + "\n";
  await Deno.writeTextFile(p("a.jsonl"), answers("good", good));
  await Deno.writeTextFile(p("b.jsonl"), answers("poor", poor));
  const w = await run([
    "compare",
    "--decompositions",
    p("typed.json"),
    "--answers",
    p("a.jsonl"),
    "--answers",
    p("b.jsonl"),
    "--format",
    "json",
  ]);
  assert.equal(w.code, 0, w.err);
  const cells = JSON.parse(w.out).cells;
  assert.deepEqual(
    cells.map((
      c: { run: string; opponent: string; winRate: number | null },
    ) => [c.run, c.opponent, c.winRate]),
    [["good", "good", null], ["good", "poor", 1], ["poor", "good", 0], ["poor", "poor", null]],
  );
  const usage = await run(["compare"]);
  assert.equal(usage.code, 2);
});

Deno.test("crux subq score and the measure step's rows give the same values on one judgments file", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "cov.jsonl");
  await Deno.writeTextFile(
    file,
    [
      line("A", "q1", "c1", "core", true),
      line("A", "q1", "b1", "background", false),
      line("A", "q1", "f1", "follow-up", true),
      line("A", "q2", "c1", "core", false),
      line("A", "q2", "c2", "core", true),
    ].join("\n") + "\n",
  );
  const cli = JSON.parse((await run(["score", "--judgments", file, "--format", "json"])).out)
    .systems.A;
  const stored = new Map(
    subqMeasureRows(await readTypedCoverage(file), { judge: "j", source: "s" })
      .filter((r) => r.topicId === "all").map((r) => [r.measure, r.value]),
  );
  // By hand: core answered 2 of 3, background 0 of 1, follow-up 1 of 1, all 3 of 5;
  // rating (default weights 1, 0.5, -1): q1 1 x 1 + 0.5 x 0 - 1 x 1 = 0, q2 1 x 0.5 = 0.5; mean 0.25.
  const hand = { core: 2 / 3, background: 0, "follow-up": 1, all: 3 / 5 };
  assert.deepEqual(cli.answered, hand);
  assert.equal(cli.rating, 0.25);
  for (const k of ["core", "background", "follow-up", "all"] as const) {
    assert.equal(stored.get(`subq_answered_${k}`), hand[k], k);
  }
  assert.equal(stored.get("subq_rating"), 0.25);
});

Deno.test("crux subq score --workspace stores the scores as measure rows, replacing its own", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "cov.jsonl");
    const ws = join(dir, "ws");
    await Deno.writeTextFile(
      file,
      [
        line("A", "q1", "c1", "core", true),
        line("A", "q1", "f1", "follow-up", true),
        line("A", "q2", "c1", "core", false),
        line("B", "q1", "c1", "core", true),
      ].join("\n") + "\n",
    );
    const first = await run(["score", "--judgments", file, "--workspace", ws]);
    assert.equal(first.code, 0, first.err);
    assert.match(
      first.err,
      /rows stored in .* \(method subq, judge file:cov\.jsonl, source file:cov\.jsonl\)/,
    );
    // Scored again with other weights: the rows of that judge and source are replaced, not added.
    const again = await run([
      "score",
      "--judgments",
      file,
      "--weights",
      "1,0.5,0",
      "--workspace",
      ws,
    ]);
    assert.equal(again.code, 0, again.err);
    const w = await openWorkspace(ws);
    const rows = await w.query<
      { run: string; topic: string; value: number; topics: number | null }
    >(
      "SELECT run, topic_id AS topic, value, topics FROM measures WHERE method = 'subq' AND measure = 'subq_rating' " +
        "AND judge = 'file:cov.jsonl' AND source = 'file:cov.jsonl' ORDER BY run, topic_id",
    );
    w.close();
    // By hand, weights core 1, follow-up 0: A q1 1 x 1 + 0 x 1 = 1, q2 0; mean 0.5 over 2 topics. B q1 1.
    assert.deepEqual(rows.map((r) => [r.run, r.topic, r.value, r.topics]), [
      ["A", "all", 0.5, 2],
      ["A", "q1", 1, null],
      ["A", "q2", 0, null],
      ["B", "all", 1, 1],
      ["B", "q1", 1, null],
    ]);
    const bad = await run(["score", "--judgments", file, "--judge", "x"]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.err, /--judge and --source name stored rows: they need --workspace DIR/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
