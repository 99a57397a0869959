import assert from "node:assert/strict";
import { methodStages } from "@lib/methods/mod.ts";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import { startOpenAiServer } from "../support/openai_server.ts";
import { runStages } from "@lib/pipeline/run_stages.ts";
import { keypointStages } from "@lib/methods/keypoints/stages.ts";
import type { MethodStageContext } from "@lib/pipeline/method_stage.ts";

const P1 = "The bridge opened in 1932 to cars. Tickets cost a dollar.";
const P2 = "In 1932 the bridge opened to traffic. The tolls were dropped in 1990.";

async function fixture(): Promise<Workspace> {
  const ws = await openWorkspace(await Deno.makeTempDir());
  await ws.upsert("topics", [
    {
      topicId: "t1",
      request: "When did the bridge open, and what about its tolls?",
      title: "Bridge",
    },
    { topicId: "t2", request: "Describe the harbour festival.", title: "Festival" },
  ]);
  await ws.upsert("passages", [
    { passageId: "t1:0#0", topicId: "t1", docId: "t1:0", text: P1, tokens: 20 },
    { passageId: "t1:1#0", topicId: "t1", docId: "t1:1", text: P2, tokens: 20 },
    { passageId: "t2:0#0", topicId: "t2", docId: "t2:0", text: "Rain fell all week.", tokens: 5 },
  ]);
  const qrel = (topicId: string, docId: string, grade: number) => ({
    name: "crux_pr",
    topicId,
    subtopic: "0",
    docId,
    grade,
  });
  await ws.upsert("qrels", [
    qrel("t1", "t1:0#0", 3),
    qrel("t1", "t1:1#0", 3),
    qrel("t2", "t2:0#0", 3),
  ]);
  const gen = (run: string, topicId: string, text: string, contextIds: string[]) => ({
    run,
    topicId,
    text,
    condition: run,
    backend: "extractive",
    contextIds,
    tokens: 10,
  });
  await ws.upsert("generations", [
    gen(
      "rag",
      "t1",
      "The bridge opened in 1932. The tolls were never dropped in 1990. Cats sing.",
      ["t1:0#0", "t1:1#0"],
    ),
    gen("rag", "t2", "Rain fell all week.", ["t2:0#0"]),
    gen("direct", "t1", "Tickets cost a dollar.", []),
  ]);
  return ws;
}

const ctx = (over: Partial<MethodStageContext> = {}): MethodStageContext => ({
  backend: "offline",
  answerRuns: ["rag", "direct"],
  answerStages: [],
  dataStages: [],
  judgeStages: [],
  outDir: "unused",
  configFile: "exp.json",
  ...over,
});
const ORDER = ["judge", "measure"];

Deno.test("keypoint stages offline: P* key points, merge map, KPR per run into measures; re-run fresh", async () => {
  const ws = await fixture();
  const notes: string[] = [];
  const specs = await methodStages(
    "keypoints",
    keypointStages.parse({ perRound: 2 }, "exp.json"),
    ctx({ onNote: (_s, m) => notes.push(m) }),
  );
  assert.deepEqual(specs.map((s) => s.id), [
    "judge:keypoints/extract",
    "judge:keypoints/merge",
    "judge:keypoints/rag",
    "judge:keypoints/direct",
    "measure:keypoints",
  ]);
  const first = await runStages(ws, specs, { order: ORDER });
  assert.equal(first.ran.length, 5);
  // t1: P1 gives "The bridge opened in 1932 to cars." (bridg, open), P2 "In 1932 the bridge opened ..."
  // and "The tolls were dropped in 1990." (toll); the two opening sentences merge (Jaccard 3/5 = 0.6).
  const merged = await ws.query<{ topicId: string; keypointId: string; mergedFrom: string[] }>(
    "SELECT topic_id, keypoint_id, merged_from FROM keypoints WHERE level = 'merged' ORDER BY topic_id, keypoint_id",
  );
  assert.deepEqual(merged.map((m) => [m.topicId, m.keypointId, m.mergedFrom]), [
    ["t1", "k1", ["o1", "o2"]],
    ["t1", "k2", ["o3"]],
  ]);
  const kpr = await ws.query<
    {
      run: string;
      topicId: string;
      value: number;
      topics: number | null;
      judge: string;
      source: string;
    }
  >(
    `SELECT run, topic_id, value, topics, judge, source FROM measures
     WHERE method = 'keypoints' AND measure = 'KPR' ORDER BY run, topic_id`,
  );
  // rag t1: k1 yes (opening sentence), k2 "no" (negated: "never dropped"): KPR 1/2.
  // direct t1: neither: 0. t2 has no key point (no question term in its passage): not scored.
  assert.deepEqual(kpr.map((r) => [r.run, r.topicId, r.value, r.topics]), [
    ["direct", "all", 0, 1],
    ["direct", "t1", 0, null],
    ["rag", "all", 0.5, 1],
    ["rag", "t1", 0.5, null],
  ]);
  assert.deepEqual([kpr[0].judge, kpr[0].source], ["offline-lexical", "extracted:offline-salient"]);
  const get = async (run: string, measure: string) =>
    (await ws.query<{ value: number }>(
      "SELECT value FROM measures WHERE method = 'keypoints' AND run = $1 AND measure = $2 AND topic_id = 'all'",
      [run, measure],
    ))[0]?.value;
  // Long2RAG's "no" (does not entail) is omitted; contradicted needs the separate label.
  assert.equal(await get("rag", "kp_omitted"), 0.5);
  assert.equal(await get("rag", "kp_contradicted"), 0);
  // rag KPP: t1 statements: 1 supported (opening), "never dropped" has a negation -> no, "Cats sing." no: 1/3;
  // t2: 1/1 -> mean 2/3. direct has no context: no KPP.
  assert.ok(Math.abs((await get("rag", "KPP"))! - 2 / 3) < 1e-12);
  assert.equal(await get("direct", "KPP"), undefined);
  assert.equal(notes.length, 0);
  const again = await runStages(ws, specs, { order: ORDER });
  assert.deepEqual([again.ran, again.fresh.length], [[], 5]);
  ws.close();
});

Deno.test("keypoint stages online: model backends through the judge role; a forced re-run makes zero calls", async () => {
  await using server = startOpenAiServer({
    chat: (req) => {
      const prompt = req.messages.at(-1)!.content;
      if (prompt.startsWith("Question:") && prompt.includes("Numbered key points")) {
        return { content: '[{"point": "Opened 1932", "sources": [1, 2]}]' };
      }
      if (prompt.includes("Points already extracted")) {
        if (!prompt.includes("(none yet)")) return { content: "[]" };
        if (prompt.includes("Tickets cost")) {
          return { content: '[{"point": "Opened 1932", "spans": ["opened in 1932"]}]' };
        }
        if (prompt.includes("tolls were dropped")) {
          return { content: '[{"point": "Opened in 1932", "spans": ["an invented span"]}]' };
        }
        return { content: "[]" };
      }
      if (prompt.includes("Key point:")) {
        return {
          content: prompt.includes("bridge opened")
            ? '{"label": "yes", "reason": "r", "snippet": "s"}'
            : '{"label": "neutral", "reason": "r", "snippet": ""}',
        };
      }
      return { content: '{"label": "yes", "reason": "ok", "snippet": ""}' };
    },
  });
  const ws = await fixture();
  const env = { CRUX_JUDGE_BASE_URL: server.url, CRUX_JUDGE_MODEL: "kp-judge" };
  const specs = await methodStages(
    "keypoints",
    keypointStages.parse({ rounds: 2 }, "x"),
    ctx({ backend: "openai", env }),
  );
  await runStages(ws, specs, { order: ORDER });
  const flagged = await ws.query<{ spanStatus: string[] }>(
    "SELECT span_status FROM keypoints WHERE level = 'merged' AND source = 'extracted:kp-judge'",
  );
  assert.deepEqual(flagged.map((f) => f.spanStatus), [["exact", "missing"]]);
  const rows = await ws.query<{ run: string; value: number; judge: string }>(
    "SELECT run, value, judge FROM measures WHERE measure = 'KPR' AND topic_id = 'all' ORDER BY run",
  );
  assert.deepEqual(rows.map((r) => [r.run, r.value, r.judge]), [["direct", 0, "kp-judge"], [
    "rag",
    1,
    "kp-judge",
  ]]);
  const calls = server.requests;
  assert.ok(calls > 0);
  const forced = await runStages(ws, specs, { order: ORDER, from: "judge" });
  assert.equal(forced.ran.length, 5);
  assert.equal(server.requests, calls); // everything came from the cache
  ws.close();
});

Deno.test("keypoints section: errors name the file and field", () => {
  assert.deepEqual(keypointStages.parse(true, "e.json"), {});
  assert.throws(
    () => keypointStages.parse({ rounds: 0 }, "e.json"),
    /e\.json: keypoints\.rounds: expected an integer >= 1, got 0/,
  );
  assert.throws(
    () => keypointStages.parse({ merge: 1 }, "e.json"),
    /e\.json: keypoints\.merge: unknown field/,
  );
  assert.throws(
    () => keypointStages.parse({ buckets: { input: [500, 100] } }, "e.json"),
    /keypoints\.buckets\.input: expected input or response with increasing token edges/,
  );
  assert.deepEqual(
    keypointStages.parse({ mergeThreshold: 0.5, buckets: { response: [100, 200] } }, "e.json"),
    {
      mergeThreshold: 0.5,
      buckets: { response: [100, 200] },
    },
  );
});

Deno.test("keypoint stages with a key point file: imported as given, judged, source file:<name>", async () => {
  const ws = await fixture();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/kp.jsonl`,
    JSON.stringify({
      qid: "t1",
      keypoints: [
        { id: "x1", text: "The bridge opened in 1932.", spans: [], merged_from: [] },
        { id: "x2", text: "Tickets cost a dollar.", spans: [], merged_from: [] },
      ],
    }) + "\n",
  );
  const section = keypointStages.parse({ file: "kp.jsonl", precision: false }, `${dir}/exp.json`);
  assert.equal(section.file, `${dir}/kp.jsonl`);
  const specs = await methodStages("keypoints", section, ctx());
  assert.deepEqual(specs.map((s) => s.id).slice(0, 2), [
    "judge:keypoints/import",
    "judge:keypoints/rag",
  ]);
  await runStages(ws, specs, { order: ORDER });
  const rows = await ws.query<{ run: string; value: number; source: string }>(
    "SELECT run, value, source FROM measures WHERE measure = 'KPR' AND topic_id = 'all' ORDER BY run",
  );
  // rag states the opening (x1), direct the tickets (x2): 1/2 each.
  assert.deepEqual(rows.map((r) => [r.run, r.value, r.source]), [
    ["direct", 0.5, "file:kp.jsonl"],
    ["rag", 0.5, "file:kp.jsonl"],
  ]);
  assert.throws(
    () =>
      methodStages(
        "keypoints",
        keypointStages.parse({ file: "nope.jsonl" }, `${dir}/exp.json`),
        ctx(),
      ),
    /exp\.json: keypoints\.file: cannot find ".*nope\.jsonl"/,
  );
  ws.close();
});
