import assert from "node:assert/strict";
import { parseVerdict } from "./parse_verdict.ts";

Deno.test("parseVerdict reads entailment and coverage objects", () => {
  assert.deepEqual(
    parseVerdict('```json\n{"label": "Yes", "reason": "stated", "snippet": "rose 3%"}\n```', [
      "yes",
      "no",
      "neutral",
    ]),
    {
      ok: true,
      value: { label: "yes", reason: "stated", evidence: "rose 3%" },
    },
  );
  assert.deepEqual(
    parseVerdict('{"label": "answered", "span": "in 1998"}', ["answered", "unanswered"]),
    {
      ok: true,
      value: { label: "answered", reason: "", evidence: "in 1998" },
    },
  );
  assert.deepEqual(parseVerdict('{"label": "maybe"}', ["yes", "no"]), {
    ok: false,
    raw: '{"label": "maybe"}',
    reason: 'label "maybe" is not one of yes | no',
  });
  assert.equal(parseVerdict("maybe so", ["yes"]).ok, false);
  assert.deepEqual(parseVerdict("Yes.", ["yes"]), {
    ok: true,
    value: { label: "yes", reason: "", evidence: "" },
  });
});
