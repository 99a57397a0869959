import assert from "node:assert/strict";
import { tableText } from "./table_text.ts";
import { SMALL } from "./testdata/small_table.ts";

Deno.test("tableText aligns columns and marks best with * and worst with _", () => {
  assert.equal(
    tableText(SMALL),
    [
      "Coverage & cost (top-10)",
      "",
      "                Retrieval",
      "Run       Cov@10  alpha_nDCG@10  Tokens  Note",
      "--------  ------  -------------  ------  ---------",
      "bm25      0.500_           0.40   1200   k1=0.9",
      "dense_e5  0.600*           0.40   1500_  50% <dup>",
      "hybrid    0.600*              -    900*  -",
      "--------  ------  -------------  ------  ---------",
      "oracle    0.900            0.90    100   P*",
      "",
      "offline backends: lexical judge, extractive generator",
      "* best, _ worst in each column",
      "",
    ].join("\n"),
  );
});

Deno.test("tableText with ansi uses bold and underline escapes without markers", () => {
  const text = tableText(
    {
      columns: [{ key: "v", label: "R@5", direction: "higher", decimals: 1 }],
      rows: [{ label: "a", values: { v: 0.2 } }, { label: "b", values: { v: 0.6 } }],
    },
    { ansi: true },
  );
  assert.equal(
    text,
    "Run  R@5\n---  ---\na    \x1b[4m0.2\x1b[0m\nb    \x1b[1m0.6\x1b[0m\n",
  );
});
