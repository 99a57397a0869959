import assert from "node:assert/strict";
import { parseSubQuestionList } from "./decompose_questions.ts";

Deno.test("sub-question list: a JSON list, or questions written one per numbered or bulleted line", () => {
  assert.deepEqual(parseSubQuestionList('```json\n["Who built it?", "When?"]\n```'), {
    ok: true,
    value: ["Who built it?", "When?"],
  });
  assert.deepEqual(
    parseSubQuestionList("Sub-questions:\n1. Who built the dam?\n2. When did it fail?\n"),
    { ok: true, value: ["Who built the dam?", "When did it fail?"] },
  );
  assert.deepEqual(parseSubQuestionList("- Who built the dam?\n- Why did it fail?"), {
    ok: true,
    value: ["Who built the dam?", "Why did it fail?"],
  });
  // No list, a list of blanks or of numbers, or a list broken by prose: unparsed.
  for (
    const text of [
      "I cannot split this question.",
      '["", " "]',
      "[1, 2]",
      "1. Who?\nWhy?\n2. When?",
    ]
  ) {
    const r = parseSubQuestionList(text);
    assert.equal(r.ok, false, text);
    assert.equal((r as { raw: string }).raw, text);
  }
});
