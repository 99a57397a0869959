import assert from "node:assert/strict";
import { findSpan } from "./find_span.ts";

Deno.test("findSpan: exact, then white space and quote normalised, else missing", () => {
  const doc = "He said \u201Cwe will   rebuild\u201D \u2014 and they did.\nIt's done.";
  assert.equal(findSpan("we will   rebuild", doc), "exact");
  assert.equal(findSpan('"we will rebuild" - and', doc), "normalized");
  assert.equal(findSpan("It\u2019s done.", doc), "normalized");
  assert.equal(findSpan("we will rebuild it all", doc), "missing");
  assert.equal(findSpan("  ", doc), "missing");
  assert.equal(findSpan("WE WILL REBUILD", doc), "missing"); // case is not normalised
});
