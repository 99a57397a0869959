import assert from "node:assert/strict";
import { combineOrders, parsePairwiseAnswer } from "./pairwise_judge.ts";

Deno.test("pairwise answer: the template's object, and the same verdict under other names", () => {
  const read = (text: string) => {
    const r = parsePairwiseAnswer(text);
    return r.ok ? r.value : null;
  };
  assert.equal(read('{"better": "1"}'), "1");
  assert.equal(read('```json\n{"better": "tie"}\n```'), "tie");
  assert.equal(read('{"better": 2}'), "2");
  assert.equal(read('{"winner": "Answer 2"}'), "2");
  assert.equal(read('{"preferred": "Response 1."}'), "1");
  assert.equal(read('{"choice": "**Neither**"}'), "tie");
  assert.equal(read('{"better": "2", "reason": "more complete"}'), "2");
  // Two keys agreeing are one verdict; another object after the verdict does not hide it.
  assert.equal(read('{"better": "1", "winner": "answer 1"}'), "1");
  assert.equal(read('{"better": "1"}\nNotes: {"length": "similar"}'), "1");
  // Nothing stated, a third answer, or two different verdicts: unparsed, never guessed.
  for (
    const text of [
      "Answer 1 is better.",
      '{"better": "3"}',
      '{"better": "both are bad"}',
      '{"better": "1", "winner": "2"}',
      '{"reason": "1 is longer"}',
      '{"better": null}',
    ]
  ) {
    const r = parsePairwiseAnswer(text);
    assert.equal(r.ok, false, text);
    assert.equal((r as { raw: string }).raw, text);
  }
});

Deno.test("pairwise orders: agreement wins, anything else is a tie", () => {
  assert.equal(combineOrders("A", "A"), "A");
  assert.equal(combineOrders("A", "B"), "tie");
  assert.equal(combineOrders("B", null), "tie");
  assert.equal(combineOrders(null, null), "tie");
});
