import assert from "node:assert/strict";
import { numberPassages } from "./number_passages.ts";

Deno.test("numberPassages counts j across the topic in document-index order", () => {
  const docs = [
    { docId: "d-b", docIndex: 1, texts: ["third", "  ", "fourth"] },
    { docId: "d-a", docIndex: 0, texts: [" first ", "second"] },
    { docId: "d-c", docIndex: 2, texts: [] },
    { docId: "d-d", docIndex: 3, texts: ["fifth"] },
  ];
  const before = JSON.stringify(docs);
  const passages = numberPassages("multi_news-test-12", docs);
  assert.deepEqual(passages.map((p) => [p.passageId, p.docId, p.text]), [
    ["multi_news-test-12:0#0", "d-a", "first"],
    ["multi_news-test-12:0#1", "d-a", "second"],
    ["multi_news-test-12:1#2", "d-b", "third"],
    ["multi_news-test-12:1#3", "d-b", "fourth"],
    ["multi_news-test-12:3#4", "d-d", "fifth"],
  ]);
  assert.equal(JSON.stringify(docs), before, "input must not be mutated");
});

Deno.test("numberPassages rejects duplicate document indexes", () => {
  assert.throws(
    () =>
      numberPassages("t", [{ docId: "x", docIndex: 0, texts: ["a"] }, {
        docId: "y",
        docIndex: 0,
        texts: ["b"],
      }]),
    /documents "x" and "y" share docIndex 0/,
  );
});
