import assert from "node:assert/strict";
import { parseSubquestionType } from "./parse_subquestion_type.ts";

Deno.test("parseSubquestionType reads the one type an answer names, in the spellings models use", () => {
  const read = (t: string) => {
    const r = parseSubquestionType(t);
    return r.ok ? r.value : null;
  };
  assert.equal(read("core"), "core");
  assert.equal(read("Background."), "background");
  assert.equal(read("**Follow up**"), "follow-up");
  assert.equal(read("[follow-up]"), "follow-up");
  assert.equal(read("Type: FOLLOWUP"), "follow-up");
  assert.equal(read("This sub-question is core to the main question."), "core");
  // Never guessed: no type, or two different ones.
  assert.equal(read("It depends."), null);
  assert.equal(read("Not background; it is core."), null);
  assert.equal(read("core or background"), null);
  const r = parseSubquestionType("maybe");
  assert.ok(!r.ok && r.raw === "maybe" && /names no type/.test(r.reason));
});

Deno.test("parseSubquestionType never reads a denied type, nor one in the reasoning", () => {
  const read = (t: string) => {
    const r = parseSubquestionType(t);
    return r.ok ? r.value : null;
  };
  assert.equal(read("It is not a follow-up question; it is central to the main question."), null);
  assert.equal(read("This sub-question is not core; it gives context."), null);
  assert.equal(read("Not core."), null);
  assert.equal(read("It isn't background."), null);
  // A label line states the type even when the reason denies another.
  assert.equal(read("Type: core\nReason: not just background."), "core");
  assert.equal(read("<think>Follow-up? No, core.</think>\nBackground"), "background");
  assert.equal(read("<think>It is core"), null);
});
