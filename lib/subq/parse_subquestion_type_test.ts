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
