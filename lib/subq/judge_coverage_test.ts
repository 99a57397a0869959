import assert from "node:assert/strict";
import { parseCoverageAnswer } from "./judge_coverage.ts";

Deno.test("parseCoverageAnswer reads the paper's None as unanswered, never a denied or thought label", () => {
  const unanswered = { ok: true, value: { answered: false, span: "" } };
  assert.deepEqual(parseCoverageAnswer("None"), unanswered);
  assert.deepEqual(parseCoverageAnswer("**None.**"), unanswered);
  assert.deepEqual(parseCoverageAnswer('{"label": "unanswered", "span": "None"}'), unanswered);
  assert.deepEqual(parseCoverageAnswer('<think>{"label": "answered"}</think>\nNone'), unanswered);
  assert.deepEqual(parseCoverageAnswer('Answered. Span: "built in 1932"'), {
    ok: true,
    value: { answered: true, span: "built in 1932" },
  });
  // The span alone answers; an empty or None span does not.
  assert.deepEqual(parseCoverageAnswer('{"span": "built in 1932"}'), {
    ok: true,
    value: { answered: true, span: "built in 1932" },
  });
  assert.deepEqual(parseCoverageAnswer('Span: "built in 1932"'), {
    ok: true,
    value: { answered: true, span: "built in 1932" },
  });
  assert.deepEqual(parseCoverageAnswer('{"span": "None"}'), unanswered);
  assert.equal(parseCoverageAnswer("The bridge was built in 1932.").ok, false);
  assert.equal(parseCoverageAnswer("It is not answered.").ok, false);
  assert.equal(parseCoverageAnswer("None of these.").ok, false);
});
