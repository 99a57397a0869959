// Every malformed case of the TREC RAG nugget formats is reported as file:line: field: message,
// all problems of a file at once; well-formed lines round-trip through the writers.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as F from "@lib/formats/mod.ts";

const CASES: {
  name: string;
  file: string;
  parse: (text: string, file: string) => unknown;
  lines: string[];
  expected: string[];
}[] = [
  {
    name: "answers",
    file: "a.jsonl",
    parse: (text, file) => F.parseRagAnswers(text, { file }),
    lines: [
      '{"run_id": "r", "topic_id": "q1", "topic": "t", "references": ["d1"], "answer": [{"text": "A.", "citations": [0]}]}',
      '{"topic_id": "q1", "references": [], "answer": []}',
      '{"run_id": "r", "topic_id": "q2", "references": "d1", "answer": []}',
      '{"run_id": "r", "topic_id": "q3", "references": ["d1"], "answer": [{"citations": [0]}]}',
      '{"run_id": "r", "topic_id": "q4", "references": ["d1"], "answer": [{"text": "A.", "citations": [1]}]}',
      '{"run_id": "r", "topic_id": "q5", "references": ["d1"], "answer": [{"text": "A.", "citations": ["0"]}]}',
      '{"run_id": "r", "topic_id": "q6", "references": ["d1"], "answer": "A."}',
      "not json",
      "[1, 2]",
    ],
    expected: [
      "a.jsonl:2: run_id: missing; add this field",
      'a.jsonl:3: references: expected a list, found "d1"',
      "a.jsonl:4: answer[0].text: missing; add this field",
      "a.jsonl:5: answer[0].citations[0]: expected an index into references (0-0), found 1",
      'a.jsonl:6: answer[0].citations[0]: expected an index into references (0-0), found "0"',
      'a.jsonl:7: answer: expected a list, found "A."',
      "a.jsonl:8: invalid JSON (Unexpected token 'o', \"not json\" is not valid JSON); each line must be one JSON object",
      "a.jsonl:9: expected a JSON object, found [1,2]",
    ],
  },
  {
    name: "nuggets",
    file: "n.jsonl",
    parse: (text, file) => F.parseNuggets(text, { file }),
    lines: [
      '{"qid": "q1", "query": "x", "nuggets": [{"text": "a", "importance": "vital"}]}',
      '{"query": "x", "nuggets": []}',
      '{"qid": "q2", "nuggets": []}',
      '{"qid": "q3", "query": "x", "nuggets": [{"importance": "okay"}]}',
      '{"qid": "q4", "query": "x", "nuggets": [{"text": "a", "importance": "high"}]}',
      '{"qid": "q5", "query": "x", "nuggets": {"text": "a"}}',
      '{"qid": "q6", "query": "x", "nuggets": [{"text": 3}]}',
    ],
    expected: [
      "n.jsonl:2: qid: missing; add this field",
      "n.jsonl:3: query: missing; add this field",
      "n.jsonl:4: nuggets[0].text: missing; add this field",
      'n.jsonl:5: nuggets[0].importance: expected one of vital, okay, found "high"',
      'n.jsonl:6: nuggets: expected a list, found {"text":"a"}',
      "n.jsonl:7: nuggets[0].text: expected a string, found 3",
    ],
  },
  {
    name: "assignments",
    file: "as.jsonl",
    parse: (text, file) => F.parseNuggetAssignments(text, { file }),
    lines: [
      '{"qid": "q1", "run_id": "r", "nuggets": [{"text": "a", "importance": "vital", "assignment": "support"}]}',
      '{"qid": "q2", "nuggets": []}',
      '{"qid": "q3", "run_id": "r", "nuggets": [{"text": "a", "assignment": "support"}]}',
      '{"qid": "q4", "run_id": "r", "nuggets": [{"text": "a", "importance": "vital"}]}',
      '{"qid": "q5", "run_id": "r", "nuggets": [{"text": "a", "importance": "vital", "assignment": "supported"}]}',
      '{"qid": "q6", "run_id": "r", "nuggets": [{"importance": "vital", "assignment": "support"}]}',
      '{"qid": "q7", "run_id": "r"}',
    ],
    expected: [
      "as.jsonl:2: run_id: missing; add this field",
      "as.jsonl:3: nuggets[0].importance: missing; add this field",
      "as.jsonl:4: nuggets[0].assignment: missing; add this field",
      'as.jsonl:5: nuggets[0].assignment: expected one of support, partial_support, not_support, failed, found "supported"',
      "as.jsonl:6: nuggets[0].text: missing; add this field",
      "as.jsonl:7: nuggets: missing; add this field",
    ],
  },
  {
    name: "creation",
    file: "c.jsonl",
    parse: (text, file) => F.parseNuggetCreationInput(text, { file }),
    lines: [
      '{"query": {"qid": "q1", "text": "x"}, "candidates": [{"docid": "d", "judgment": 3, "doc": {"segment": "s"}}]}',
      '{"candidates": []}',
      '{"query": {"qid": "q2", "text": "x"}, "candidates": [{"docid": "d", "judgment": 2.5, "doc": {"segment": "s"}}]}',
      '{"query": {"qid": "q3", "text": "x"}, "candidates": [{"docid": "d", "doc": "s"}]}',
      '{"query": {"qid": "q4", "text": "x"}, "candidates": [{"judgment": 3, "doc": {"segment": "s"}}]}',
      '{"query": {"qid": "q5", "text": "x"}, "candidates": [{"docid": "d", "score": "high", "doc": {"segment": "s"}}]}',
    ],
    expected: [
      "c.jsonl:2: query: missing; add this field",
      "c.jsonl:3: candidates[0].judgment: expected an integer, found 2.5",
      'c.jsonl:4: candidates[0].doc: expected an object, found "s"',
      "c.jsonl:5: candidates[0].docid: missing; add this field",
      'c.jsonl:6: candidates[0].score: expected a number, found "high"',
    ],
  },
  {
    name: "scores",
    file: "s.jsonl",
    parse: (text, file) => F.parseNuggetScores(text, { file }),
    lines: [
      '{"qid": "q1", "strict_vital_score": 1, "strict_all_score": 1, "vital_score": 1, "all_score": 1}',
      '{"qid": "q2", "strict_vital_score": 1, "vital_score": 1, "all_score": 1}',
      '{"strict_vital_score": 1, "strict_all_score": 1, "vital_score": 1, "all_score": 1}',
    ],
    expected: [
      "s.jsonl:2: strict_all_score: missing; add this field",
      "s.jsonl:3: qid: missing; add this field",
    ],
  },
  {
    name: "questions",
    file: "q.jsonl",
    parse: (text, file) => F.parseNuggetQuestions(text, { file }),
    lines: [
      '{"id": "t1", "nuggets": [["Who?", "Ann"]]}',
      '{"id": "t2", "nuggets": [["Who?"]]}',
      '{"id": "t3", "nuggets": [["Who?", 3]]}',
      '{"nuggets": []}',
    ],
    expected: [
      'q.jsonl:2: nuggets[0]: expected [question, answer or list of answers], found ["Who?"]',
      "q.jsonl:3: nuggets[0][1]: expected an answer string or a list of them, found 3",
      "q.jsonl:4: id: missing; add this field",
    ],
  },
];

for (const c of CASES) {
  Deno.test(`${c.name}: every malformed line named with file, line and field`, () => {
    const error = (() => {
      try {
        c.parse(c.lines.join("\n"), c.file);
      } catch (e) {
        return e as Error;
      }
      throw new Error("no error");
    })();
    assert.equal(error.name, "InputError");
    assert.deepEqual(error.message.split("\n"), c.expected);
    // The first line of each case is well formed and parses alone.
    c.parse(c.lines[0], c.file);
  });
}

Deno.test("writers round-trip answers, nuggets, assignments and scores through files", async () => {
  const dir = await Deno.makeTempDir();
  const answers: F.RagAnswer[] = [{
    runId: "r1",
    topicId: "2024-1",
    topic: "comets",
    references: ["d1", "d2"],
    responseLength: 5,
    answer: [{ text: "Comets carry ice.", citations: [1] }, { text: "They glow.", citations: [] }],
  }];
  const nuggets: F.NuggetSet[] = [{
    qid: "2024-1",
    query: "comets",
    nuggets: [{ text: "ice", importance: "vital" }],
  }];
  const assignments: F.NuggetAssignment[] = [{
    qid: "2024-1",
    runId: "r1",
    nuggets: [{ text: "ice", importance: "vital", assignment: "partial_support" }],
  }];
  const scores: F.NuggetScore[] = [
    { qid: "2024-1", runId: "r1", strictVital: 0, strictAll: 0, vital: 0.5, all: 0.5 },
    { qid: "all", runId: "r1", strictVital: 0, strictAll: 0, vital: 0.5, all: 0.5 },
  ];
  const path = (n: string) => join(dir, n);
  await F.writeAtomic(path("a.jsonl"), F.formatRagAnswers(answers));
  await F.writeAtomic(path("n.jsonl"), F.formatNuggets(nuggets));
  await F.writeAtomic(path("as.jsonl"), F.formatNuggetAssignments(assignments));
  await F.writeAtomic(path("s.jsonl"), F.formatNuggetScores(scores));
  assert.deepEqual(await F.readRagAnswers(path("a.jsonl")), answers);
  assert.deepEqual(await F.readNuggets(path("n.jsonl")), nuggets);
  assert.deepEqual(await F.readNuggetAssignments(path("as.jsonl")), assignments);
  assert.deepEqual(await F.readNuggetScores(path("s.jsonl")), scores);
  assert.equal(
    (await Deno.readTextFile(path("s.jsonl"))).split("\n")[1],
    '{"qid":"all","run_id":"r1","strict_vital_score":0,"strict_all_score":0,"vital_score":0.5,"all_score":0.5}',
  );
  // A file read from disk names its path in errors.
  await Deno.writeTextFile(
    path("bad.jsonl"),
    '{"qid": "q", "query": "x", "nuggets": [{"text": "a", "importance": "key"}]}\n',
  );
  await assert.rejects(
    () => F.readNuggets(path("bad.jsonl")),
    (e: Error) =>
      e.message ===
        `${path("bad.jsonl")}:1: nuggets[0].importance: expected one of vital, okay, found "key"`,
  );
  await Deno.remove(dir, { recursive: true });
});
