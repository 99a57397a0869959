import assert from "node:assert/strict";
import { parseJsonValue } from "./parse_json_value.ts";

Deno.test("parseJsonValue tolerates fences and surrounding text", () => {
  assert.deepEqual(parseJsonValue('Sure!\n```json\n["a", "b]"]\n```\nDone.', "array"), {
    ok: true,
    value: ["a", "b]"],
  });
  assert.deepEqual(parseJsonValue('[bad] then {"x": [1]}', "object"), {
    ok: true,
    value: { x: [1] },
  });
  assert.deepEqual(parseJsonValue('[bad] ["ok"]', "array"), { ok: true, value: ["ok"] });
  assert.deepEqual(parseJsonValue('["open', "array"), {
    ok: false,
    raw: '["open',
    reason: "the answer ends inside an unclosed JSON array (cut off?)",
  });
  assert.deepEqual(parseJsonValue("{}", "array"), {
    ok: false,
    raw: "{}",
    reason: "no JSON array of the expected shape found (1 other value(s))",
  });
  // The last well-formed value wins; a [] or [2] cited in prose never does.
  const strings = (v: unknown) => (v as unknown[]).every((x) => typeof x === "string");
  assert.deepEqual(
    parseJsonValue('An empty list [] would mean none; per [2]:\n["a", "b"]', "array", {
      fits: strings,
    }),
    { ok: true, value: ["a", "b"] },
  );
  assert.deepEqual(parseJsonValue('["a"]\nSee [2].', "array", { fits: strings }), {
    ok: true,
    value: ["a"],
  });
  assert.deepEqual(parseJsonValue("['it\\'s', \"b\",]", "array"), {
    ok: true,
    value: ["it's", "b"],
  });
  assert.deepEqual(parseJsonValue('Draft: ["x"]\nFinal: ["y", "z"]', "array"), {
    ok: true,
    value: ["y", "z"],
  });
  // A broken value is skipped whole: none of its parts is read as the answer.
  assert.equal(parseJsonValue('[{"a": 1}, {"b": 2,,}]', "object").ok, false);
});
