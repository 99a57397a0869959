import assert from "node:assert/strict";
import { parseHumanAnnotations, type ReportAnnotation } from "./human_annotations.ts";
import { InputError } from "./input_error.ts";

const problems = (text: string) => {
  try {
    parseHumanAnnotations(text, { file: "a.jsonl" });
  } catch (error) {
    assert.ok(error instanceof InputError);
    return error.message.split("\n");
  }
  assert.fail("expected an InputError");
};

Deno.test("report-level files keep labels, coverage and spans in order", () => {
  const a = parseHumanAnnotations(
    [
      '{"id": "duc-1", "question_based_nugget": {"Who?": "the mayor", "When?": ""}, "answerability": [1, 0], "coverage": 0.5}',
      "",
      '{"id": 7, "answerability": [1, 1, 0], "coverage": 0.667}',
    ].join("\n"),
    { file: "a.jsonl" },
  );
  assert.equal(a.kind, "report");
  assert.deepEqual(a.items, [
    {
      topicId: "duc-1",
      line: 1,
      answerability: [1, 0],
      naSlots: [],
      coverage: 0.5,
      spans: { "Who?": "the mayor", "When?": "" },
    },
    { topicId: "7", line: 3, answerability: [1, 1, 0], naSlots: [], coverage: 0.667 },
  ]);
});

Deno.test("passage-level files map sub-question indexes to ratings, -1 kept", () => {
  const p = parseHumanAnnotations(
    '{"id": "t", "document": "t:0#1", "relevances": {"0": 5, "2": -1}, "rationales": {"0": "x"}}\n',
    { file: "p.jsonl" },
  );
  assert.equal(p.kind, "passage");
  assert.equal(p.items.length, 1);
  const item = p.items[0] as { relevances: Map<number, number>; passageId: string };
  assert.equal(item.passageId, "t:0#1");
  assert.deepEqual([...item.relevances], [[0, 5], [2, -1]]);
});

Deno.test("malformed label files name file, line and field", () => {
  assert.deepEqual(problems('{"id": "t", "answerability": [1, 2]}'), [
    `a.jsonl:1: answerability[1]: expected 0, 1 or -2 (an "NA" placeholder slot), found 2`,
  ]);
  assert.match(
    problems('{"id": "t", "answerability": [1, 0], "coverage": 0.9}')[0],
    /^a\.jsonl:1: coverage: 0\.9 is not the share of 1s in answerability \(0\.5000\)/,
  );
  assert.deepEqual(
    problems('{"id": "t", "answerability": [1, 0, -2, -2], "coverage": 0.3}'),
    [
      "a.jsonl:1: coverage: 0.3 is not the share of 1s in answerability (0.2500 over all 4 slots, 0.5000 over the 2 real ones); fix one of the two",
    ],
  );
  assert.deepEqual(
    problems('{"id": "t", "answerability": [1]}\n{"id": "t", "answerability": [0]}'),
    ['a.jsonl:2: report of topic "t" is already labelled on line 1'],
  );
  // The same labels again: dropped and counted.
  let dropped = -1;
  const same = parseHumanAnnotations(
    '{"id": "t", "answerability": [1]}\n{"id": "u", "answerability": [0]}\n{"id": "t", "answerability": [1]}\n',
    { file: "a.jsonl", onDuplicates: (n) => dropped = n },
  );
  assert.deepEqual([same.items.map((i) => i.topicId), dropped], [["t", "u"], 1]);
  assert.deepEqual(
    problems('{"id": "t", "answerability": [1]}\n{"id": "u", "document": "d", "relevances": {}}'),
    ["a.jsonl:2: relevances: passage-level line in a report-level file"],
  );
  assert.deepEqual(problems('{"id": "t", "document": "d", "relevances": {"0": 6}}'), [
    "a.jsonl:1: relevances.0: expected an integer from -1 to 5, found 6",
  ]);
  assert.deepEqual(problems('{"id": "t", "document": "d", "relevances": {"first": 1}}'), [
    "a.jsonl:1: relevances.first: expected a sub-question index (0, 1, 2, ...) as key",
  ]);
  assert.deepEqual(problems("\n\n"), ["a.jsonl: empty file; expected JSONL"]);
});

Deno.test("release label files: -2 marks NA placeholder slots; coverage over all slots or the real ones", () => {
  const text = [
    // As released: coverage 2 of 15 slots.
    JSON.stringify({ id: "t1", answerability: [1, 0, 1, ...Array(12).fill(-2)], coverage: 0.133 }),
    // Coverage over the 3 real slots.
    JSON.stringify({ id: "t2", answerability: [1, 0, 1, ...Array(12).fill(-2)], coverage: 0.667 }),
  ].join("\n");
  const a = parseHumanAnnotations(text, { file: "a.jsonl" });
  assert.equal(a.kind, "report");
  const items = a.items as ReportAnnotation[];
  assert.deepEqual(items[0].naSlots, [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  assert.deepEqual(items[0].answerability.slice(0, 4), [1, 0, 1, -2]);
  assert.equal(items[1].coverage, 0.667);
});
