import assert from "node:assert/strict";
import { join } from "node:path";
import { inputError, inputErrorOf } from "./_testing.ts";
import {
  checkMultiNewsColumns,
  multiNewsRowExample,
  multiNewsRowExamples,
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

Deno.test("Multi-News: an exact repeat is dropped, counted and takes no position; another summary names both lines", async () => {
  const dir = await Deno.makeTempDir();
  const line = (doc: string, summary: string) => JSON.stringify({ document: doc, summary });
  // Line 3 repeats line 1 exactly: the example on line 4 keeps index 2, as without the repeat.
  await Deno.writeTextFile(
    join(dir, "mn.jsonl"),
    [line("A. ||||| B.", "S1."), line("C.", "S2."), line("A. ||||| B.", "S1."), line("D.", "S3.")]
      .join("\n") + "\n",
  );
  let dropped = -1;
  const examples = await readMultiNewsJsonl(join(dir, "mn.jsonl"), {
    onDuplicates: (n) => dropped = n,
  });
  assert.deepEqual(examples.map((e) => [e.index, e.summary]), [[0, "S1."], [1, "S2."], [2, "S3."]]);
  assert.equal(dropped, 1);
  // The same articles with another summary: refused, naming both lines.
  await Deno.writeTextFile(
    join(dir, "bad.jsonl"),
    [line("A. ||||| B.", "S1."), line("C.", "S2."), line("A. ||||| B.", "Other.")].join("\n"),
  );
  const error = await inputErrorOf(readMultiNewsJsonl(join(dir, "bad.jsonl")));
  assert.deepEqual(error.problems.map((p) => [p.file, p.line]), [[join(dir, "bad.jsonl"), 3]]);
  assert.match(error.problems[0].message, /already on line 1 with other content/);
  // .src/.tgt pairs: the same rule, lines counted in the sources file.
  await Deno.writeTextFile(join(dir, "p.src"), "A. ||||| B.\nC.\nA. ||||| B.\nA. ||||| B.\n");
  await Deno.writeTextFile(join(dir, "p.tgt"), "S1.\nS2.\nS1.\nS9.\n");
  const pairs = await inputErrorOf(readMultiNewsPairs(join(dir, "p.src"), join(dir, "p.tgt")));
  assert.deepEqual(pairs.problems.map((p) => [p.file, p.line]), [[join(dir, "p.src"), 4]]);
  assert.match(pairs.problems[0].message, /already on line 1 with other content/);
  await Deno.writeTextFile(join(dir, "p.tgt"), "S1.\nS2.\nS1.\nS3.\n");
  await Deno.writeTextFile(join(dir, "p.src"), "A. ||||| B.\nC.\nA. ||||| B.\nD.\n");
  dropped = -1;
  const kept = await readMultiNewsPairs(join(dir, "p.src"), join(dir, "p.tgt"), {
    onDuplicates: (n) => dropped = n,
  });
  assert.deepEqual(kept.map((e) => [e.index, e.summary]), [[0, "S1."], [1, "S2."], [2, "S3."]]);
  assert.equal(dropped, 1);
  // Table rows (Parquet): the same, rows numbered from 1; the limit counts kept examples.
  const rows = [["A.", "S1."], ["A.", "S1."], ["B.", "S2."], ["C.", "S3."]];
  assert.deepEqual(
    multiNewsRowExamples("t.parquet", rows, { limit: 2 }).map((e) => [e.index, e.summary]),
    [[0, "S1."], [1, "S2."]],
  );
  const rowError = inputError(() =>
    multiNewsRowExamples("t.parquet", [["A.", "S1."], ["A.", "S2."]])
  );
  assert.deepEqual(rowError.problems.map((p) => [p.file, p.line]), [["t.parquet", 2]]);
});
