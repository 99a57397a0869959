import assert from "node:assert/strict";
import { join } from "node:path";
import { inputError, inputErrorOf } from "./_testing.ts";
import {
  checkMultiNewsColumns,
  multiNewsRowExample,
  readMultiNewsJsonl,
  readMultiNewsPairs,
  splitMultiNewsDocument,
} from "./multi_news.ts";

const DATA = new URL("./testdata/multi_news/", import.meta.url).pathname;

Deno.test("splitMultiNewsDocument handles both separators and NEWLINE_CHAR", () => {
  assert.deepEqual(
    splitMultiNewsDocument(
      "A. NEWLINE_CHAR NEWLINE_CHAR B. |||||  C. story_separator_special_tag D.|||||",
    ),
    [
      "A.\n\nB.",
      "C.",
      "D.",
    ],
  );
});

Deno.test("readMultiNewsPairs pairs src and tgt lines and honours the limit", async () => {
  const examples = await readMultiNewsPairs(join(DATA, "test.src"), join(DATA, "test.tgt"));
  assert.deepEqual(examples, [
    {
      index: 0,
      documents: [
        "First article about the fictional comet.\n\nIt was bright.",
        "Second article on the comet.",
      ],
      summary: "– A comet was seen.",
    },
    { index: 1, documents: ["Only one story here", "Another story"], summary: "– Two stories." },
  ]);
  assert.equal(
    (await readMultiNewsPairs(join(DATA, "test.src"), join(DATA, "test.tgt"), { limit: 1 })).length,
    1,
  );
});

Deno.test("readMultiNewsPairs refuses files with different line counts", async () => {
  const e = await inputErrorOf(readMultiNewsPairs(join(DATA, "test.src"), join(DATA, "short.tgt")));
  assert.equal(e.problems[0].file, join(DATA, "test.src"));
  assert.equal(e.problems[0].line, 2);
  assert.match(e.message, /this file has 2 lines and the other 1/);
});

Deno.test("readMultiNewsJsonl accepts a joined document or a list", async () => {
  assert.deepEqual(await readMultiNewsJsonl(join(DATA, "test.jsonl")), [
    { index: 0, documents: ["Article one.", "Article two."], summary: "Both articles." },
    { index: 1, documents: ["Listed one."], summary: "A list." },
  ]);
  assert.equal((await readMultiNewsJsonl(join(DATA, "test.jsonl"), { limit: 1 })).length, 1);
});

Deno.test("multiNewsRowExample splits a row's articles; checkMultiNewsColumns names missing ones", () => {
  assert.deepEqual(multiNewsRowExample(3, "P1. NEWLINE_CHAR x ||||| P2.", "S1"), {
    index: 3,
    documents: ["P1.\nx", "P2."],
    summary: "S1",
  });
  assert.deepEqual(multiNewsRowExample(0, null, null), { index: 0, documents: [], summary: "" });
  checkMultiNewsColumns("mn.parquet", ["summary", "document"]);
  assert.equal(
    inputError(() => checkMultiNewsColumns("bad.parquet", ["text", "summary"])).message,
    "bad.parquet: document: missing column; found text, summary",
  );
});
