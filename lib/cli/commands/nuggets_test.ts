import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { nuggetsCommand } from "./nuggets.ts";
import { readNuggetScores } from "@lib/formats/mod.ts";
import { startOpenAiServer } from "../../../tests/support/openai_server.ts";

const n = (importance: string, assignment: string) => ({
  text: `${importance} ${assignment}`,
  importance,
  assignment,
});

async function run(args: string[]) {
  const io = memoryIo();
  const code = await main(["nuggets", ...args], io, [nuggetsCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} vs ${b}`);

Deno.test("crux nuggets score: the reference case, failed labels, no vital nuggets, several runs", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "assignments.jsonl");
  const lines = [
    // The published reference answer: strict_vital 0.5, vital 0.75, strict_all 1/3, all 0.5.
    {
      qid: "q1",
      run_id: "a",
      nuggets: [n("vital", "support"), n("vital", "partial_support"), n("okay", "not_support")],
    },
    // failed counts as not_support; no vital nugget gives 0 for both vital scores.
    { qid: "q2", run_id: "a", nuggets: [n("okay", "support"), n("okay", "failed")] },
    { qid: "q1", run_id: "b", nuggets: [n("vital", "failed"), n("okay", "partial_support")] },
  ];
  await Deno.writeTextFile(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const json = await run(["score", "--assignments", file, "--format", "json", "--per-query"]);
  assert.equal(json.code, 0, json.err);
  const [a, b] = JSON.parse(json.out).runs;
  assert.equal(a.run_id, "a");
  assert.equal(a.topics, 2);
  const q1 = a.perQuery.find((p: { qid: string }) => p.qid === "q1");
  assert.deepEqual([q1.strict_vital_score, q1.vital_score, q1.all_score], [0.5, 0.75, 0.5]);
  close(q1.strict_all_score, 1 / 3);
  const q2 = a.perQuery.find((p: { qid: string }) => p.qid === "q2");
  assert.deepEqual([q2.strict_vital_score, q2.vital_score, q2.strict_all_score, q2.all_score], [
    0,
    0,
    0.5,
    0.5,
  ]);
  close(a.aggregate.strict_vital_score, 0.25);
  close(a.aggregate.vital_score, 0.375);
  close(a.aggregate.strict_all_score, (1 / 3 + 0.5) / 2);
  close(a.aggregate.all_score, 0.5);
  assert.deepEqual(b.aggregate, {
    strict_vital_score: 0,
    vital_score: 0,
    strict_all_score: 0,
    all_score: 0.25,
  });
  // One run: the single-run shape, perQuery only when asked.
  await Deno.writeTextFile(join(dir, "one.jsonl"), JSON.stringify(lines[0]) + "\n");
  const one = JSON.parse(
    (await run(["score", "--assignments", join(dir, "one.jsonl"), "--format", "json"])).out,
  );
  assert.deepEqual(Object.keys(one), ["aggregate", "topics"]);
  assert.equal(one.aggregate.vital_score, 0.75);
  // The scores JSONL, with an "all" row per run.
  const out = join(dir, "scores.jsonl");
  assert.equal((await run(["score", "--assignments", file, "--out", out])).code, 0);
  const scores = await readNuggetScores(out);
  assert.deepEqual(scores.map((s) => [s.runId, s.qid]), [["a", "q1"], ["a", "q2"], ["a", "all"], [
    "b",
    "q1",
  ], ["b", "all"]]);
  assert.equal(scores[2].vital, 0.375);
  const table = await run(["score", "--assignments", file]);
  assert.match(table.out, /^a\s+0\.2500\s+0\.3750\s+0\.4167\s+0\.5000\s+2$/m);
});

Deno.test("crux nuggets score: malformed files are named with line and field", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "bad.jsonl");
  await Deno.writeTextFile(
    file,
    JSON.stringify({ qid: "q1", run_id: "a", nuggets: [n("vital", "supported")] }) + "\n",
  );
  const r = await run(["score", "--assignments", file]);
  assert.equal(r.code, 1);
  assert.match(
    r.err,
    /bad\.jsonl:1: nuggets\[0\]\.assignment: expected one of support, partial_support, not_support, failed/,
  );
  const twice = join(dir, "twice.jsonl");
  const line = JSON.stringify({ qid: "q1", run_id: "a", nuggets: [n("vital", "support")] });
  await Deno.writeTextFile(twice, `${line}\n${line.replace('support"}', 'not_support"}')}\n`);
  const t = await run(["score", "--assignments", twice]);
  assert.equal(t.code, 1);
  assert.match(
    t.err,
    /twice\.jsonl:2: run_id: run "a" on query "q1" is already on line 1 with other content/,
  );
  // An exact repeat is dropped and said; the score is that of the one line (1 vital supported).
  await Deno.writeTextFile(twice, `${line}\n${line}\n`);
  const e = await run(["score", "--assignments", twice, "--format", "json"]);
  assert.equal(e.code, 0, e.err);
  assert.match(e.err, /twice\.jsonl: 1 identical repeated lines dropped/);
  assert.equal(JSON.parse(e.out).aggregate.vital_score, 1);
  assert.equal((await run(["score"])).code, 2);
});

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

async function trecFiles(dir: string) {
  const input = join(dir, "creation.jsonl");
  await Deno.writeTextFile(
    input,
    jsonl([{
      query: { qid: "q1", text: "What do comets carry?" },
      candidates: [
        {
          docid: "d1",
          judgment: 3,
          doc: { segment: "Comets carry ice and dust from the outer solar system." },
        },
        {
          docid: "d2",
          judgment: 2,
          doc: {
            segment: "Near the sun, the ice of a comet turns into gas and forms a tail.",
          },
        },
        {
          docid: "d3",
          judgment: 0,
          doc: { segment: "A museum sells comet posters in the gift shop downstairs." },
        },
      ],
    }]),
  );
  const answers = join(dir, "answers.jsonl");
  await Deno.writeTextFile(
    answers,
    jsonl([
      {
        run_id: "good",
        topic_id: "q1",
        topic: "What do comets carry?",
        references: ["d1"],
        answer: [
          { text: "Comets carry ice and dust from the outer solar system.", citations: [0] },
          { text: "The ice turns into gas near the sun.", citations: [0] },
        ],
      },
      {
        run_id: "poor",
        topic_id: "q1",
        topic: "What do comets carry?",
        references: [],
        answer: [{ text: "Posters are sold downstairs.", citations: [] }],
      },
    ]),
  );
  return { input, answers };
}

Deno.test("crux nuggets create, label, assign offline from TREC RAG files; score agrees", async () => {
  const dir = await Deno.makeTempDir();
  const ws = join(dir, "ws");
  const { input, answers } = await trecFiles(dir);
  const nuggets = join(dir, "nuggets.jsonl");
  const c = await run(["create", "--workspace", ws, "--input", input, "--out", nuggets]);
  assert.equal(c.code, 0, c.err);
  assert.match(c.err, /offline backend/);
  assert.match(
    c.out,
    /^Created \d+ nuggets for 1 topics as created:offline \(1 windows, 0 failed\)/,
  );
  const created = (await Deno.readTextFile(nuggets)).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(created[0].qid, "q1");
  assert.ok(created[0].nuggets.length > 0);
  assert.ok(
    !JSON.stringify(created).includes("posters"),
    "the candidate judged 0 is dropped (AutoNuggetizer keeps >= 1)",
  );
  const l = await run(["label", "--workspace", ws, "--out", nuggets]);
  assert.equal(l.code, 0, l.err);
  assert.match(l.out, /^Labelled \d+ nuggets of created:offline: \d+ vital, \d+ okay, 0 failed/);
  const out = join(dir, "assignments.jsonl");
  const scoresFile = join(dir, "scores.jsonl");
  const a = await run([
    "assign",
    "--workspace",
    ws,
    "--answers",
    answers,
    "--out",
    out,
    "--scores",
    scoresFile,
  ]);
  assert.equal(a.code, 0, a.err);
  assert.match(a.out, /Assigned \d+ labels to 2 answers with lexical-nuggets \(0 failed\)/);
  assert.match(a.out, /^poor\s+0\.0000\s+0\.0000\s+0\.0000\s+0\.0000\s+1$/m);
  assert.match(a.out, /offline backend/);
  // The written assignments, scored from the file alone, give the scores written by assign.
  const fromFile = JSON.parse((await run(["score", "--assignments", out, "--format", "json"])).out);
  const written = await readNuggetScores(scoresFile);
  for (const r of fromFile.runs) {
    const all = written.find((s) => s.runId === r.run_id && s.qid === "all")!;
    assert.deepEqual(r.aggregate, {
      strict_vital_score: all.strictVital,
      vital_score: all.vital,
      strict_all_score: all.strictAll,
      all_score: all.all,
    });
  }
  assert.ok(
    fromFile.runs.find((r: { run_id: string }) => r.run_id === "good").aggregate.all_score > 0.5,
  );
  // Two origins in the workspace: the command asks which one.
  const second = join(dir, "other.jsonl");
  await Deno.writeTextFile(
    second,
    jsonl([{ qid: "q1", query: "?", nuggets: [{ text: "ice", importance: "vital" }] }]),
  );
  assert.equal((await run(["assign", "--workspace", ws, "--nuggets", second])).code, 0);
  const ask = await run(["label", "--workspace", ws]);
  assert.equal(ask.code, 2);
  assert.match(
    ask.err,
    /holds nuggets of "created:offline", "file:other.jsonl": pick one with --origin/,
  );
});

Deno.test("crux nuggets create, label, assign against the test server; a re-run sends nothing", async () => {
  await using server = startOpenAiServer({
    chat: (req) => {
      const u = req.messages.at(-1)!.content;
      if (u.includes("New passages:")) {
        return { content: '["comets carry ice", "comets carry dust"]' };
      }
      const n =
        (JSON.parse(/Nuggets \(JSON\):\n([\s\S]*?)\n\nFor each/.exec(u)![1]) as string[]).length;
      if (u.includes("\nText:\n")) {
        return {
          content: JSON.stringify(
            Array(n).fill(u.includes("outer solar system") ? "support" : "not_support"),
          ),
        };
      }
      return { content: JSON.stringify(Array(n).fill("vital")) };
    },
  });
  const dir = await Deno.makeTempDir();
  const ws = join(dir, "ws");
  const { input, answers } = await trecFiles(dir);
  const model = ["--workspace", ws, "--model", "judge-m", "--base-url", server.url];
  const steps = async () => {
    assert.equal((await run(["create", ...model, "--input", input])).code, 0);
    assert.equal((await run(["label", ...model])).code, 0);
    return await run(["assign", ...model, "--answers", answers]);
  };
  const a = await steps();
  assert.equal(a.code, 0, a.err);
  assert.doesNotMatch(a.err + a.out, /offline/);
  assert.match(a.out, /^good\s+1\.0000\s+1\.0000\s+1\.0000\s+1\.0000\s+1$/m);
  assert.match(a.out, /^poor\s+0\.0000/m);
  assert.equal(server.requests, 1 + 1 + 2);
  const again = await steps();
  assert.equal(again.out, a.out);
  assert.equal(server.requests, 4);
});

Deno.test("crux nuggets create: a workspace without graded passages says what to run", async () => {
  const dir = await Deno.makeTempDir();
  const r = await run(["create", "--workspace", join(dir, "ws")]);
  assert.equal(r.code, 2);
  assert.match(r.err, /has no passage graded >= 1 in the qrels "crux_pr": run the CRUX selection/);
});
