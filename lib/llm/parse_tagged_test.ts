import assert from "node:assert/strict";
import { parseTagged } from "./parse_tagged.ts";

Deno.test("parseTagged reads <q>/<p>/<r> lists, including a cut-off last tag", () => {
  assert.deepEqual(parseTagged("Here:\n<q> Who? </q>\n<q>When?</q>", "q"), {
    ok: true,
    value: ["Who?", "When?"],
  });
  assert.deepEqual(parseTagged("<P>one\ntwo</P><p></p><p>three", "p"), {
    ok: true,
    value: ["one\ntwo", "three"],
  });
  assert.deepEqual(parseTagged("<r>a</r>", "r"), { ok: true, value: ["a"] });
  assert.deepEqual(parseTagged("no tags", "q"), {
    ok: false,
    raw: "no tags",
    reason: "no <q> tags found",
  });
});
