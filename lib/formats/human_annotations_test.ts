import assert from "node:assert/strict";
import { parseHumanAnnotations } from "./human_annotations.ts";
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
      coverage: 0.5,
      spans: { "Who?": "the mayor", "When?": "" },
    },
    { topicId: "7", line: 3, answerability: [1, 1, 0], coverage: 0.667 },
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
    "a.jsonl:1: answerability[1]: expected 0 or 1, found 2",
  ]);
  assert.match(
    problems('{"id": "t", "answerability": [1, 0], "coverage": 0.9}')[0],
    /^a\.jsonl:1: coverage: 0\.9 is not the mean of answerability \(0\.5000\)/,
  );
  assert.deepEqual(
    problems('{"id": "t", "answerability": [1]}\n{"id": "t", "answerability": [0]}'),
    ['a.jsonl:2: report of topic "t" is already labelled on line 1'],
  );
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
