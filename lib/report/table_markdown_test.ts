import assert from "node:assert/strict";
import { tableMarkdown } from "./table_markdown.ts";
import { SMALL } from "./testdata/small_table.ts";

Deno.test("tableMarkdown renders ties, reference rows, nulls and notes exactly", () => {
  const before = structuredClone(SMALL);
  const md = tableMarkdown(SMALL);
  assert.equal(
    md,
    [
      "Table: Coverage & cost (top-10)",
      "",
      "|  | Retrieval |  |  |  |",
      "| :-- | --: | --: | --: | :-- |",
      "| **Run** | **Cov@10** | **alpha_nDCG@10** | **Tokens** | **Note** |",
      "| bm25 | <u>0.500</u> | 0.40 | 1200 | k1=0.9 |",
      "| dense_e5 | **0.600** | 0.40 | <u>1500</u> | 50% &lt;dup> |",
      "| hybrid | **0.600** | – | **900** | – |",
      "| oracle | 0.900 | 0.90 | 100 | P\\* |",
      "",
      "Note: offline backends: lexical judge, extractive generator",
      "",
    ].join("\n"),
  );
  assert.deepEqual(SMALL, before, "input not mutated");
});

Deno.test("tableMarkdown leaves a column unmarked when every value ties", () => {
  const md = tableMarkdown({
    columns: [{ key: "v", label: "P@1", direction: "higher" }],
    rows: [{ label: "a", values: { v: 1 } }, { label: "b", values: { v: 1 } }],
  });
  assert.equal(md, "| Run | P@1 |\n| :-- | --: |\n| a | 1.000 |\n| b | 1.000 |\n");
});

Deno.test("tableMarkdown escapes pipes in labels and strings", () => {
  const md = tableMarkdown({
    rowHeader: "Pipeline",
    columns: [{ key: "x", label: "a|b" }],
    rows: [{ label: "r|1", values: { x: "y|z" } }],
  });
  assert.equal(md, "| Pipeline | a\\|b |\n| :-- | :-- |\n| r\\|1 | y\\|z |\n");
});
