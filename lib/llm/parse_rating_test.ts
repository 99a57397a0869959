import assert from "node:assert/strict";
import { parseRating } from "./parse_rating.ts";

Deno.test("parseRating takes the first integer and requires 0-5", () => {
  assert.deepEqual(parseRating("4"), { ok: true, value: 4 });
  assert.deepEqual(parseRating(" Rating: 3/5"), { ok: true, value: 3 });
  assert.deepEqual(parseRating("4.5"), { ok: true, value: 4 });
  assert.deepEqual(parseRating("0"), { ok: true, value: 0 });
  assert.deepEqual(parseRating("It is good."), {
    ok: false,
    raw: "It is good.",
    reason: "no integer found",
  });
  assert.deepEqual(parseRating("7 of 10"), {
    ok: false,
    raw: "7 of 10",
    reason: "first integer 7 is outside 0-5",
  });
  assert.deepEqual(parseRating(""), { ok: false, raw: "", reason: "no integer found" });
});
