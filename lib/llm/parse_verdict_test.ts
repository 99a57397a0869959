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

Deno.test("parseVerdict: a plain-text answer keeps the reason and evidence it states", () => {
  const yn = ["yes", "no", "neutral"];
  assert.deepEqual(
    parseVerdict('**[Yes]**\n\n**Reason:** the year is given.\nSnippet: "opened in 1932"', yn),
    { ok: true, value: { label: "yes", reason: "the year is given.", evidence: "opened in 1932" } },
  );
  // Fields on one line run to the next field; a span given as "span".
  assert.deepEqual(
    parseVerdict("Answered. Span: “the bridge opened in 1932”.", ["answered", "unanswered"]),
    { ok: true, value: { label: "answered", reason: "", evidence: "the bridge opened in 1932" } },
  );
  assert.deepEqual(parseVerdict('[no]\nReason: not mentioned. Snippet: ""', yn), {
    ok: true,
    value: { label: "no", reason: "not mentioned.", evidence: "" },
  });
  // The first value of a field counts; a label alone has neither.
  assert.deepEqual(parseVerdict("No.\n- Evidence: first\n- Evidence: second", yn), {
    ok: true,
    value: { label: "no", reason: "", evidence: "first" },
  });
  assert.deepEqual(parseVerdict("[neutral]", yn), {
    ok: true,
    value: { label: "neutral", reason: "", evidence: "" },
  });
});
