import assert from "node:assert/strict";
import { passageOrdinal } from "./passage_ordinal.ts";

Deno.test("passageOrdinal reads j and sorts malformed ids last", () => {
  assert.equal(passageOrdinal("multi_news-test-12:2#7"), 7);
  assert.equal(passageOrdinal("t:0#12"), 12);
  assert.equal(passageOrdinal("t:report"), Infinity);
});

Deno.test("passageOrdinal follows parsePassageId: ids without {topic}:{doc} sort last", () => {
  // Agrees with `parsePassageId` of @lib/formats, which rejects these ids.
  assert.equal(passageOrdinal("doc#3"), Infinity);
  assert.equal(passageOrdinal("t:x#3"), Infinity);
  assert.equal(passageOrdinal("t:0#3 "), Infinity);
  assert.equal(passageOrdinal("a:b:1#4"), 4);
});
