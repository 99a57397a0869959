import assert from "node:assert/strict";
import { parseLabels } from "./parse_labels.ts";

Deno.test("parseLabels normalises labels and checks the count", () => {
  const allowed = ["support", "partial_support", "not_support"];
  assert.deepEqual(
    parseLabels('["Support", "partial support", "not-support"]', allowed, { count: 3 }),
    {
      ok: true,
      value: ["support", "partial_support", "not_support"],
    },
  );
  assert.deepEqual(parseLabels('["support"]', allowed, { count: 2 }), {
    ok: false,
    raw: '["support"]',
    reason: "expected 2 labels, found 1",
  });
  assert.deepEqual(parseLabels('["maybe"]', allowed), {
    ok: false,
    raw: '["maybe"]',
    reason: 'unknown label "maybe"; expected support | partial_support | not_support',
  });
  assert.equal(parseLabels("vital, okay", ["vital", "okay"]).ok, false);
});
