import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { keypointsCommand } from "./keypoints.ts";
import { openWorkspace } from "@lib/store/mod.ts";

async function run(args: string[]) {
  const io = memoryIo();
  const code = await main(["keypoints", ...args], io, [keypointsCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

const jsonl = (...xs: unknown[]) => xs.map((x) => JSON.stringify(x)).join("\n") + "\n";
const kp = (id: string, mergedFrom: string[] = []) => ({
  id,
  text: `point ${id}`,
  doc_id: "d1",
  spans: [`point ${id}`],
  merged_from: mergedFrom,
});

async function files(entailments: unknown[]) {
  const dir = await Deno.makeTempDir();
  const points = join(dir, "keypoints.jsonl");
  await Deno.writeTextFile(
    points,
    jsonl(
      { qid: "q1", keypoints: [kp("k1", ["a1", "a2"]), kp("k2"), kp("k3"), kp("k4")] },
      { qid: "q2", keypoints: [kp("m1"), kp("m2")] },
      { qid: "q3", keypoints: [] }, // no key points: left out of KPR
    ),
  );
  const ent = join(dir, "entailments.jsonl");
  await Deno.writeTextFile(ent, jsonl(...entailments));
  return { points, ent };
}

Deno.test("crux keypoints score: KPR by hand, a missing line scores 0, several runs", async () => {
  const { points, ent } = await files([
    {
      qid: "q1",
      run_id: "a",
      labels: [{ keypoint_id: "k1", label: "yes" }, { keypoint_id: "k2", label: "neutral" }, {
        keypoint_id: "k3",
        label: "yes",
      }, { keypoint_id: "k4", label: "no" }],
    },
    {
      qid: "q2",
      run_id: "a",
      labels: [{ keypoint_id: "m1", label: "yes" }, { keypoint_id: "m2", label: "yes" }],
    },
    { qid: "q1", run_id: "b", labels: [{ keypoint_id: "k1", label: "yes" }] },
  ]);
  const r = await run([
    "score",
    "--keypoints",
    points,
    "--entailments",
    ent,
    "--format",
    "json",
    "--per-query",
  ]);
  assert.equal(r.code, 0, r.err);
  const [a, b] = JSON.parse(r.out).runs;
  // Run a: q1 2/4, q2 2/2 -> KPR 0.75 over 2 questions (q3 has no key points).
  assert.equal(a.run_id, "a");
  assert.equal(a.aggregate.KPR, 0.75);
  assert.equal(a.topics, 2);
  assert.deepEqual(a.perQuery.map((p: { qid: string; KPR: number }) => [p.qid, p.KPR]), [[
    "q1",
    0.5,
  ], ["q2", 1]]);
  assert.equal(a.aggregate.KPP, null);
  // q1: yes, neutral, yes, no -> supported 2/4, omitted 2/4 (Long2RAG's no: does not entail),
  // contradicted 0; q2 all supported.
  assert.equal(a.aggregate.kp_supported, 0.75);
  assert.equal(a.aggregate.kp_omitted, 0.25);
  assert.equal(a.aggregate.kp_contradicted, 0);
  // Run b: q1 1/4 (three unlabelled), q2 has no line -> 0: KPR 0.125, both reported.
  assert.equal(b.aggregate.KPR, 0.125);
  assert.match(
    r.err,
    /# b: no entailment line for 1 question\(s\) with key points \(scored 0\): q2/,
  );
  assert.match(r.err, /# b: 3 key points without a label \(not covered\)/);
});

Deno.test("crux keypoints score: the three-way labels give supported / omitted / contradicted rates", async () => {
  const { points, ent } = await files([
    {
      qid: "q1",
      run_id: "a",
      labels: [
        { keypoint_id: "k1", label: "supported" },
        { keypoint_id: "k2", label: "contradicted" },
        { keypoint_id: "k3", label: "omitted" },
        { keypoint_id: "k4", label: "supported" },
      ],
    },
    {
      qid: "q2",
      run_id: "a",
      labels: [{ keypoint_id: "m1", label: "omitted" }, { keypoint_id: "m2", label: "supported" }],
    },
  ]);
  const r = JSON.parse(
    (await run(["score", "--keypoints", points, "--entailments", ent, "--format", "json"])).out,
  );
  // q1: 2/4 supported, 1/4 omitted, 1/4 contradicted; q2: 1/2, 1/2, 0. Means over questions.
  assert.deepEqual(r.aggregate, {
    KPR: 0.5,
    KPP: null,
    KPF: null,
    kp_supported: 0.5,
    kp_omitted: 0.375,
    kp_contradicted: 0.125,
  });
  // The table keeps every header apart, the longest ones included.
  const table = (await run(["score", "--keypoints", points, "--entailments", ent])).out;
  const [header, row] = table.trim().split("\n");
  assert.deepEqual(header.trim().split(/\s+/), [
    "run",
    "KPR",
    "KPP",
    "KPF",
    "kp_supported",
    "kp_omitted",
    "kp_contradicted",
    "topics",
  ]);
  assert.deepEqual(row.trim().split(/\s+/), [
    "a",
    "0.5000",
    "-",
    "-",
    "0.5000",
    "0.3750",
    "0.1250",
    "2",
  ]);
  assert.deepEqual(Object.keys(r), ["aggregate", "topics"]);
});

Deno.test("crux keypoints score: an unknown key point or label is an error with file and line", async () => {
  const { points, ent } = await files([
    { qid: "q1", run_id: "a", labels: [{ keypoint_id: "k1", label: "yes" }] },
    { qid: "q2", run_id: "a", labels: [{ keypoint_id: "k9", label: "yes" }] },
  ]);
  const unknown = await run(["score", "--keypoints", points, "--entailments", ent]);
  assert.equal(unknown.code, 1);
  assert.match(
    unknown.err,
    /entailments\.jsonl:2: labels: key point "k9" is not a key point of question "q2"/,
  );
  const bad = await files([{
    qid: "q1",
    run_id: "a",
    labels: [{ keypoint_id: "k1", label: "maybe" }],
  }]);
  const label = await run(["score", "--keypoints", bad.points, "--entailments", bad.ent]);
  assert.equal(label.code, 1);
  assert.match(
    label.err,
    /entailments\.jsonl:1: labels\[0\]\.label: expected one of yes, no, neutral, contradicts, supported, omitted, contradicted/,
  );
});

Deno.test("crux keypoints score: a repeated line is dropped and counted, a conflicting one names both lines", async () => {
  const q1 = (labels: string[]) => ({
    qid: "q1",
    run_id: "a",
    labels: labels.map((label, i) => ({ keypoint_id: `k${i + 1}`, label })),
  });
  const q2 = { qid: "q2", run_id: "a", labels: [{ keypoint_id: "m1", label: "yes" }] };
  // An exact repeat of q1's line: q1 stays at 2/4, q2 1/2 -> KPR 0.5, and it is said.
  const exact = await files([q1(["yes", "yes", "no", "no"]), q2, q1(["yes", "yes", "no", "no"])]);
  const r = await run([
    "score",
    "--keypoints",
    exact.points,
    "--entailments",
    exact.ent,
    "--format",
    "json",
  ]);
  assert.equal(r.code, 0, r.err);
  assert.equal(JSON.parse(r.out).aggregate.KPR, 0.5);
  assert.match(r.err, /entailments\.jsonl: 1 identical repeated lines dropped/);
  // The same question and run with other labels (q1 would become 4/4): refused, both lines named.
  const other = await files([q1(["yes", "yes", "no", "no"]), q2, q1(["yes", "yes", "yes", "yes"])]);
  const c = await run(["score", "--keypoints", other.points, "--entailments", other.ent]);
  assert.equal(c.code, 1);
  assert.match(
    c.err,
    /entailments\.jsonl:3: run_id: run "a" on question "q1" is already on line 1 with other content/,
  );
  assert.equal(c.out, "");
  // A key point file giving a question twice with other points: refused at the key point file.
  await Deno.writeTextFile(
    exact.points,
    jsonl({ qid: "q1", keypoints: [kp("k1")] }, { qid: "q1", keypoints: [kp("k9")] }),
  );
  const k = await run(["score", "--keypoints", exact.points, "--entailments", exact.ent]);
  assert.equal(k.code, 1);
  assert.match(
    k.err,
    /keypoints\.jsonl:2: qid: question "q1" is already on line 1 with other content/,
  );
  assert.doesNotMatch(k.err, /entailments\.jsonl/);
});

const DOCS = [
  { doc_id: "d1", text: "The bridge opened in 1932 to cars. Tickets cost a dollar." },
  { doc_id: "d2", text: "In 1932 the bridge opened to traffic. The tolls were dropped in 1990." },
];

Deno.test("crux keypoints extract | merge | judge | score offline, end to end on files", async () => {
  const dir = await Deno.makeTempDir();
  const f = (n: string) => join(dir, n);
  await Deno.writeTextFile(
    f("questions.jsonl"),
    jsonl(
      { qid: "q1", question: "When did the bridge open, and its tolls?", documents: DOCS },
      {
        qid: "q2",
        question: "Describe the harbour festival.",
        documents: [{ doc_id: "x", text: "Rain fell." }],
      },
    ),
  );
  const ex = await run(["extract", "--questions", f("questions.jsonl"), "--out", f("orig.jsonl")]);
  assert.equal(ex.code, 0, ex.err);
  assert.match(
    ex.err,
    /# 3 key points from 3 documents of 2 questions \(offline-salient, 2 round\(s\)\); 0 flagged/,
  );
  const mg = await run(["merge", "--keypoints", f("orig.jsonl"), "--out", f("kp.jsonl")]);
  assert.equal(mg.code, 0, mg.err);
  assert.match(mg.err, /# 3 key points merged into 2 \(offline-lexical\(0\.6\)\)/);
  const kp = (await Deno.readTextFile(f("kp.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(
    kp[0].keypoints.map((k: { id: string; merged_from: string[] }) => [k.id, k.merged_from]),
    [
      ["k1", ["o1", "o2"]],
      ["k2", ["o3"]],
    ],
  );
  assert.deepEqual(kp[1], { qid: "q2", keypoints: [] });
  await Deno.writeTextFile(
    f("responses.jsonl"),
    jsonl(
      {
        qid: "q1",
        question: "?",
        run_id: "a",
        documents: DOCS,
        response: "The bridge opened in 1932. The tolls were never dropped in 1990. Cats sing.",
      },
      { qid: "q1", question: "?", run_id: "b", documents: [], response: "Tickets cost a dollar." },
    ),
  );
  const jd = await run([
    "judge",
    "--keypoints",
    f("kp.jsonl"),
    "--responses",
    f("responses.jsonl"),
    "--out",
    f("ent.jsonl"),
    "--statements",
    f("st.jsonl"),
  ]);
  assert.equal(jd.code, 0, jd.err);
  const ent = (await Deno.readTextFile(f("ent.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.deepEqual(ent[0].labels.map((l: { label: string }) => l.label), ["yes", "no"]);
  const sc = await run([
    "score",
    "--keypoints",
    f("kp.jsonl"),
    "--entailments",
    f("ent.jsonl"),
    "--statements",
    f("st.jsonl"),
    "--format",
    "json",
    "--workspace",
    f("ws"),
  ]);
  assert.equal(sc.code, 0, sc.err);
  const [a, b] = JSON.parse(sc.out).runs;
  // a: k1 yes, k2 no (negated: does not entail) -> KPR 0.5, omitted 0.5, contradicted 0; statements 1 of 3 supported -> KPP 1/3,
  // KPF = 2 * 0.5 * (1/3) / (0.5 + 1/3) = 0.4. b: nothing covered; no documents -> no KPP.
  assert.equal(a.aggregate.KPR, 0.5);
  assert.equal(a.aggregate.kp_omitted, 0.5);
  assert.equal(a.aggregate.kp_contradicted, 0);
  assert.ok(Math.abs(a.aggregate.KPP - 1 / 3) < 1e-12);
  assert.ok(Math.abs(a.aggregate.KPF - 0.4) < 1e-12);
  assert.deepEqual([b.aggregate.KPR, b.aggregate.KPP, b.topics], [0, null, 1]);
  assert.match(sc.err, /1 question\(s\) without key points left out of KPR: q2/);
  const ws = await openWorkspace(f("ws"));
  const stored = await ws.query<
    { run: string; value: number; judge: string; source: string; topics: number }
  >(
    "SELECT run, value, judge, source, topics FROM measures WHERE measure = 'KPR' AND topic_id = 'all' ORDER BY run",
  );
  ws.close();
  assert.deepEqual(stored.map((r) => [r.run, r.value, r.judge, r.source, r.topics]), [
    ["a", 0.5, "file:ent.jsonl", "file:kp.jsonl", 1],
    ["b", 0, "file:ent.jsonl", "file:kp.jsonl", 1],
  ]);
  const three = await run([
    "judge",
    "--keypoints",
    f("kp.jsonl"),
    "--responses",
    f("responses.jsonl"),
    "--out",
    f("ent3.jsonl"),
    "--three-way",
  ]);
  assert.equal(three.code, 0, three.err);
  assert.match(
    await Deno.readTextFile(f("ent3.jsonl")),
    /"label":"supported".*"label":"omitted"/,
  );
  // With the separate contradiction label the negated match is "contradicts" -> contradicted.
  const contra = await run([
    "judge",
    "--keypoints",
    f("kp.jsonl"),
    "--responses",
    f("responses.jsonl"),
    "--out",
    f("ent4.jsonl"),
    "--three-way",
    "--contradiction",
  ]);
  assert.equal(contra.code, 0, contra.err);
  assert.match(
    await Deno.readTextFile(f("ent4.jsonl")),
    /"label":"supported".*"label":"contradicted"/,
  );
});

Deno.test("crux keypoints respond writes the protocol's responses; extract online flags a made-up span", async () => {
  const dir = await Deno.makeTempDir();
  const f = (n: string) => join(dir, n);
  await Deno.writeTextFile(f("q.jsonl"), jsonl({ qid: "q1", question: "When?", documents: DOCS }));
  const rs = await run([
    "respond",
    "--questions",
    f("q.jsonl"),
    "--out",
    f("r.jsonl"),
    "--run",
    "l2r",
    "--max-tokens",
    "12",
  ]);
  assert.equal(rs.code, 0, rs.err);
  const line = JSON.parse(await Deno.readTextFile(f("r.jsonl")));
  assert.deepEqual([line.run_id, line.backend, line.response], [
    "l2r",
    "offline-extractive",
    "The bridge opened in 1932 to cars.",
  ]);
  const { startOpenAiServer } = await import("../../../tests/support/openai_server.ts");
  await using server = startOpenAiServer({
    chat: (req) => ({
      content: req.messages.at(-1)!.content.includes("Tickets cost")
        ? '[{"point": "Opened 1932", "spans": ["opened in 1932", "a quote nobody wrote"]}]'
        : "[]",
    }),
  });
  const args = [
    "extract",
    "--questions",
    f("q.jsonl"),
    "--out",
    f("kp.jsonl"),
    "--backend",
    "openai",
    "--base-url",
    server.url,
    "--model",
    "m",
    "--workspace",
    join(dir, "ws"),
  ];
  const ex = await run(args);
  assert.equal(ex.code, 0, ex.err);
  assert.match(
    ex.err,
    /# 1 key points from 2 documents of 1 questions \(m, 2 round\(s\)\); 1 flagged: 1 spans not found/,
  );
  const kp = JSON.parse(await Deno.readTextFile(f("kp.jsonl")));
  assert.deepEqual(kp.keypoints[0].span_status, ["exact", "missing"]);
  const calls = server.requests;
  assert.equal((await run(args)).code, 0);
  assert.equal(server.requests, calls); // cached in the workspace: zero calls
});
