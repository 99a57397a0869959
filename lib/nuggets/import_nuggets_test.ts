import assert from "node:assert/strict";
import {
  formatNuggetAssignments,
  parseNuggetAssignments,
  parseNuggetQuestions,
  parseNuggets,
  parseRagAnswers,
} from "@lib/formats/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { importNuggets } from "./import_nuggets.ts";
import { importRagAnswers } from "./import_rag_answers.ts";
import { exportNuggets } from "./export_nuggets.ts";
import { assignNuggets } from "./assign_nuggets.ts";
import { labelNuggets } from "./label_nuggets.ts";
import { offlineNuggetBackend } from "./offline_nugget_backend.ts";

const ANSWERS = [
  {
    run_id: "r1",
    topic_id: "q1",
    topic: "What do comets carry?",
    references: ["d1"],
    answer: [{ text: "Comets carry ice and dust.", citations: [0] }],
  },
  {
    run_id: "r2",
    topic_id: "q1",
    topic: "What do comets carry?",
    references: [],
    answer: [{ text: "Nobody knows.", citations: [] }],
  },
].map((a) => JSON.stringify(a)).join("\n");

const NUGGETS = JSON.stringify({
  qid: "q1",
  query: "What do comets carry?",
  nuggets: [
    { text: "comets carry ice", importance: "vital" },
    { text: "comets carry dust", importance: "okay" },
    { text: "comet tails glow", importance: "vital" },
  ],
});

Deno.test("TREC RAG answers and nuggets in, assignments out, in the AutoNuggetizer layout", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    assert.deepEqual(await importRagAnswers(ws, parseRagAnswers(ANSWERS, { file: "a.jsonl" })), {
      runs: ["r1", "r2"],
      answers: 2,
    });
    const imported = await importNuggets(ws, parseNuggets(NUGGETS, { file: "n.jsonl" }), {
      origin: "file:n.jsonl",
    });
    assert.deepEqual(imported, { origin: "file:n.jsonl", topics: 1, nuggets: 3, unlabelled: 0 });
    const backend = offlineNuggetBackend();
    const a = await assignNuggets(ws, { backend, origin: "file:n.jsonl" });
    assert.equal(a.labels, 6);
    const out = await exportNuggets(ws, { origin: "file:n.jsonl", judge: backend.judge });
    // vital first, then file order
    assert.deepEqual(out.nuggets[0].nuggets.map((n) => n.text), [
      "comets carry ice",
      "comet tails glow",
      "comets carry dust",
    ]);
    const text = formatNuggetAssignments(out.assignments);
    assert.deepEqual(
      parseNuggetAssignments(text, { file: "x" }).map((
        r,
      ) => [r.runId, r.nuggets.map((n) => n.assignment)]),
      [
        ["r1", ["support", "not_support", "support"]],
        ["r2", ["not_support", "not_support", "not_support"]],
      ],
    );
    // The file's repeat rule: an exact repeat is dropped and counted, a different answer to
    // the same topic by the same run names both lines.
    let dropped = -1;
    const again = parseRagAnswers(ANSWERS + "\n" + ANSWERS.split("\n")[0], {
      file: "a",
      onDuplicates: (n) => dropped = n,
    });
    assert.equal(dropped, 1);
    assert.equal(again.length, 2);
    const other = JSON.stringify({ ...JSON.parse(ANSWERS.split("\n")[0]), answer: [] });
    assert.throws(
      () => parseRagAnswers(ANSWERS + "\n" + other, { file: "a" }),
      /a:3: topic_id: run "r1" answers topic "q1" again with another answer \(first on line 1\)/,
    );
    // Answers given to the workspace twice for one run and topic are refused.
    await assert.rejects(
      () => importRagAnswers(ws, [...again, again[0]]),
      /Run "r1" answers topic "q1" twice/,
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("human nugget questions are imported unlabelled and labelled by the label step", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await ws.upsert("topics", [{ topicId: "t1", request: "Who won the race?" }]);
    const topics = parseNuggetQuestions(
      '{"id": "t1", "nuggets": [["Who won?", "Ann"], ["Who won?", ["Bo"]], ["When?", "May"]]}',
      { file: "q.jsonl" },
    );
    const r = await importNuggets(ws, topics, { origin: "file:q.jsonl" });
    assert.deepEqual(r, { origin: "file:q.jsonl", topics: 1, nuggets: 2, unlabelled: 2 });
    const l = await labelNuggets(ws, { backend: offlineNuggetBackend(), origin: "file:q.jsonl" });
    assert.equal(l.labelled, 2);
    const rows = await ws.query<{ text: string; importance: string; by: string }>(
      `SELECT text, importance, importance_by AS by FROM nuggets ORDER BY ordinal`,
    );
    assert.deepEqual(rows, [
      { text: "Who won? Answer: Ann; Bo", importance: "okay", by: "offline" },
      { text: "When? Answer: May", importance: "okay", by: "offline" },
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
