import assert from "node:assert/strict";
import { InputError } from "@lib/formats/mod.ts";
import { parseHumanLabels, readHumanLabels } from "./human_labels.ts";

Deno.test("parseHumanLabels: coverage labels and CRUX report judgments, mixed", () => {
  const text = [
    '{"topicId": "t1", "condition": "a", "coverage": 0.5}',
    "",
    '{"topicId": "t2", "run": "b", "coverage": 1}',
    '{"id": "t1", "docid": "t1:report", "rating": [5, 4, 0]}',
    '{"example_id": "t2", "pid": "t2:report:bm25-mmr", "rating": [-1, 3]}',
  ].join("\n");
  assert.deepEqual(parseHumanLabels(text, { file: "h.jsonl" }), [
    { topicId: "t1", condition: "a", coverage: 0.5 },
    { topicId: "t2", condition: "b", coverage: 1 },
    { topicId: "t1", condition: "oracle-result", ratings: [5, 4, 0] },
    { topicId: "t2", condition: "bm25-mmr", ratings: [-1, 3] },
  ]);
});

Deno.test("parseHumanLabels: every malformed line is reported with file, line and field", () => {
  const text = [
    "not json",
    '{"topicId": "t1", "coverage": 0.5}',
    '{"topicId": "t1", "run": "a", "coverage": 1.5}',
    '{"id": "t1", "docid": "t1:0#3", "rating": [1]}',
    '{"id": "t1", "docid": "t1:report", "rating": [7]}',
  ].join("\n");
  try {
    parseHumanLabels(text, { file: "h.jsonl" });
    assert.fail("expected an InputError");
  } catch (e) {
    assert.ok(e instanceof InputError);
    assert.equal(
      e.message,
      [
        "h.jsonl:1: not valid JSON; expected one object per line",
        'h.jsonl:2: condition: missing "condition" (or "run")',
        "h.jsonl:3: coverage: coverage 1.5 is not a number in [0, 1]",
        'h.jsonl:4: docid: "t1:0#3" is not a report id ("t1:report" or "t1:report:{run}")',
        "h.jsonl:5: rating: rating must be a list of integers 0-5 (or -1)",
      ].join("\n"),
    );
  }
});

Deno.test("readHumanLabels: reads a file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/h.jsonl`, '{"topicId":"t","condition":"x","coverage":0}\n');
    assert.deepEqual(await readHumanLabels(`${dir}/h.jsonl`), [{
      topicId: "t",
      condition: "x",
      coverage: 0,
    }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
