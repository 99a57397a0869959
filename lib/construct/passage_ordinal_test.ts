import assert from "node:assert/strict";
import { passageOrdinal } from "./passage_ordinal.ts";

Deno.test("passageOrdinal reads j and sorts malformed ids last", () => {
  assert.equal(passageOrdinal("multi_news-test-12:2#7"), 7);
  assert.equal(passageOrdinal("t:0#12"), 12);
  assert.equal(passageOrdinal("t:report"), Infinity);
});
