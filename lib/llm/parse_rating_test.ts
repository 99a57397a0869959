import assert from "node:assert/strict";
import { parseRating, parseScale } from "./parse_rating.ts";

Deno.test("parseRating reads the stated rating, never a range, a count or a list number", () => {
  assert.deepEqual(parseRating("4"), { ok: true, value: 4 });
  assert.deepEqual(parseRating(" Rating: 3/5"), { ok: true, value: 3 });
  assert.deepEqual(parseRating("0"), { ok: true, value: 0 });
  assert.deepEqual(parseRating("Rating (0-5): 4"), { ok: true, value: 4 });
  assert.deepEqual(parseRating("Q1: 4"), { ok: true, value: 4 });
  assert.deepEqual(parseRating("Based on 2 passages, the rating is 4"), { ok: true, value: 4 });
  assert.deepEqual(parseRating("Rating: 3\nOn reflection, final rating: 4"), {
    ok: true,
    value: 4,
  });
  assert.deepEqual(parseRating("Rating (0-5"), {
    ok: false,
    raw: "Rating (0-5",
    reason: "no rating 0-5 stated",
  });
  assert.deepEqual(parseRating("It is good."), {
    ok: false,
    raw: "It is good.",
    reason: "no rating 0-5 stated",
  });
  assert.deepEqual(parseRating("4.5"), {
    ok: false,
    raw: "4.5",
    reason: "rating 4.5 is not a whole number",
  });
  assert.deepEqual(parseRating("7 of 10"), {
    ok: false,
    raw: "7 of 10",
    reason: "no rating 0-5 stated",
  });
  assert.deepEqual(parseRating("7"), { ok: false, raw: "7", reason: "rating 7 is outside 0-5" });
  assert.deepEqual(parseRating("Rating: 2. Rating: 3"), {
    ok: false,
    raw: "Rating: 2. Rating: 3",
    reason: "conflicting ratings 2, 3",
  });
  assert.deepEqual(parseRating(""), { ok: false, raw: "", reason: "no rating 0-5 stated" });
});

Deno.test("parseScale applies the same rule to another scale", () => {
  assert.deepEqual(parseScale("Score (0-3): 3", 0, 3), { ok: true, value: 3 });
  assert.equal(parseScale("Score: 4", 0, 3).ok, false);
});
