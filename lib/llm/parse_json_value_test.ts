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
    reason: "no JSON array found",
  });
  assert.deepEqual(parseJsonValue("{}", "array"), {
    ok: false,
    raw: "{}",
    reason: "no JSON array found",
  });
});
