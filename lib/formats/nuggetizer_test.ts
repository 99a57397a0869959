import assert from "node:assert/strict";
import { inputError } from "./_testing.ts";
import {
  formatNuggetAssignments,
  formatNuggetScores,
  parseNuggetAssignments,
  parseNuggetScores,
} from "./nugget_assignments.ts";
import { parseNuggetCreationInput } from "./nugget_creation.ts";
import { formatNuggets, nuggetQuestions, parseNuggets } from "./nuggets.ts";
import { answerGeneration, answerText, formatRagAnswers, parseRagAnswers } from "./rag_answers.ts";

Deno.test("nugget creation input drops candidates judged below 1 (AutoNuggetizer) and keeps unjudged ones", () => {
  const line = JSON.stringify({
    query: { qid: 2024, text: "why do comets glow" },
    candidates: [
      { docid: "d0", judgment: 0, doc: { segment: "z" } },
      { docid: "d1", judgment: 1, doc: { segment: "a" } },
      { docid: "d2", judgment: 2, score: 9.5, doc: { segment: "b" } },
      { docid: "d3", doc: { segment: "c" } },
      { docid: "d4", judgment: 3, doc: { segment: "d" } },
    ],
  });
  const [input] = parseNuggetCreationInput(line, { file: "in.jsonl" });
  assert.equal(input.qid, "2024");
  assert.deepEqual(input.candidates.map((c) => c.docid), ["d1", "d2", "d3", "d4"]);
  assert.deepEqual(input.candidates[1], { docid: "d2", segment: "b", score: 9.5, judgment: 2 });
  const [strict] = parseNuggetCreationInput(line, { file: "in.jsonl", minJudgment: 2 });
  assert.deepEqual(strict.candidates.map((c) => c.docid), ["d2", "d3", "d4"]);
  const bad = '{"query": {"qid": "q"}, "candidates": [{"docid": "d", "doc": {}}]}';
  assert.deepEqual(
    inputError(() => parseNuggetCreationInput(bad, { file: "in" })).problems.map((p) => p.field),
    [
      "query.text",
      "candidates[0].doc.segment",
    ],
  );
});

Deno.test("nuggets parse, validate importance, format and become questions", () => {
  const text =
    '{"qid": "q1", "query": "comets", "nuggets": [{"text": "ice", "importance": "vital"}, {"text": "dust"}]}';
  const sets = parseNuggets(text, { file: "n.jsonl" });
  assert.deepEqual(sets, [{
    qid: "q1",
    query: "comets",
    nuggets: [{ text: "ice", importance: "vital" }, { text: "dust" }],
  }]);
  assert.deepEqual(parseNuggets(formatNuggets(sets), { file: "n" }), sets);
  assert.deepEqual(
    nuggetQuestions(sets[0]).map((q) => [q.questionId, q.kind, q.ordinal, q.importance]),
    [
      ["q1#q1", "nugget", 1, "vital"],
      ["q1#q2", "nugget", 2, undefined],
    ],
  );
  assert.equal(
    inputError(() =>
      parseNuggets('{"qid": "q", "query": "x", "nuggets": [{"text": "a", "importance": "key"}]}', {
        file: "n",
      })
    )
      .message,
    'n:1: nuggets[0].importance: expected one of vital, okay, found "key"',
  );
});

Deno.test("answers: text is the sentences joined by spaces; citations must index references", () => {
  const line = JSON.stringify({
    run_id: "r1",
    topic_id: "q1",
    topic: "comets",
    references: ["d1", "d2"],
    response_length: 4,
    answer: [{ text: "Comets are icy.", citations: [0, 1] }, { text: "They glow.", citations: [] }],
  });
  const [a] = parseRagAnswers(line, { file: "a.jsonl" });
  assert.equal(answerText(a), "Comets are icy. They glow.");
  assert.deepEqual(answerGeneration(a), {
    run: "r1",
    topicId: "q1",
    text: "Comets are icy. They glow.",
    contextIds: ["d1", "d2"],
  });
  assert.deepEqual(parseRagAnswers(formatRagAnswers([a]), { file: "a" }), [a]);
  const bad = line.replace("[0,1]", "[0,2]");
  assert.equal(
    inputError(() => parseRagAnswers(bad, { file: "a" })).message,
    "a:1: answer[0].citations[1]: expected an index into references (0-1), found 2",
  );
});

Deno.test("assignments and scores parse, validate labels and round-trip", () => {
  const text = JSON.stringify({
    qid: "q1",
    run_id: "r1",
    nuggets: [
      { text: "a", importance: "vital", assignment: "support" },
      { text: "b", importance: "okay", assignment: "failed" },
    ],
  });
  const records = parseNuggetAssignments(text, { file: "x" });
  assert.deepEqual(records[0].nuggets.map((n) => n.assignment), ["support", "failed"]);
  assert.deepEqual(
    parseNuggetAssignments(formatNuggetAssignments(records), { file: "x" }),
    records,
  );
  assert.match(
    inputError(() => parseNuggetAssignments(text.replace('"support"', '"yes"'), { file: "x" }))
      .message,
    /x:1: nuggets\[0\]\.assignment: expected one of support, partial_support, not_support, failed, found "yes"/,
  );
  const scores =
    '{"qid": "q1", "strict_vital_score": 0.5, "strict_all_score": 0.3333, "vital_score": 0.75, "all_score": 0.5}\n' +
    '{"qid": "all", "strict_vital_score": 0.5, "strict_all_score": 0.3333, "vital_score": 0.75, "all_score": 0.5}';
  const parsed = parseNuggetScores(scores, { file: "s" });
  assert.deepEqual(parsed[1], {
    qid: "all",
    strictVital: 0.5,
    strictAll: 0.3333,
    vital: 0.75,
    all: 0.5,
  });
  assert.deepEqual(parseNuggetScores(formatNuggetScores(parsed), { file: "s" }), parsed);
  assert.equal(
    inputError(() =>
      parseNuggetScores(
        '{"qid": "q", "strict_vital_score": "x", "strict_all_score": 0, "vital_score": 0, "all_score": 0}',
        { file: "s" },
      )
    )
      .message,
    's:1: strict_vital_score: expected a number, found "x"',
  );
});
