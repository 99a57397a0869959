import assert from "node:assert/strict";
import { chunkText } from "@lib/text/mod.ts";
import { chunkSplitter } from "./chunk_splitter.ts";

Deno.test("chunkSplitter returns chunkText's passages under the name chunker", async () => {
  const doc = Array.from(
    { length: 40 },
    (_, i) => `Sentence number ${i} adds a few more words here.`,
  ).join(" ");
  const splitter = chunkSplitter({ minWords: 20, maxWords: 40 });
  const [r] = await splitter.split([doc]);
  assert.equal(splitter.name, "chunker");
  assert.deepEqual(r, {
    passages: chunkText(doc, { minWords: 20, maxWords: 40 }),
    status: "ok",
    raw: "",
  });
  assert.ok(r.passages.length >= 8);
});
