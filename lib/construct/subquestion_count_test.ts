import assert from "node:assert/strict";
import { subquestionCount } from "./subquestion_count.ts";

Deno.test("subquestionCount: CRUX's 15 for DUC and 10 for Multi-News, overridable", () => {
  assert.equal(subquestionCount("duc04"), 15);
  assert.equal(subquestionCount("multi_news"), 10);
  assert.equal(subquestionCount("sample"), 10);
  assert.equal(subquestionCount(undefined), 10);
  assert.equal(subquestionCount("duc04", 7), 7);
  assert.equal(subquestionCount("duc04", { multi_news: 12 }), 15);
  assert.equal(subquestionCount("multi_news", { multi_news: 12 }), 12);
  assert.equal(subquestionCount("sample", { default: 5 }), 5);
  assert.throws(() => subquestionCount("duc04", { duc04: 0 }), /dataset "duc04".*got 0/);
  assert.throws(() => subquestionCount("x", 2.5), /positive integer, got 2.5/);
});
