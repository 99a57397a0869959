import assert from "node:assert/strict";
import { tableCsv } from "./table_csv.ts";
import { SMALL } from "./testdata/small_table.ts";

Deno.test("tableCsv writes plain values at full precision with comment lines", () => {
  assert.equal(
    tableCsv(SMALL),
    [
      "# Coverage & cost (top-10)",
      "# offline backends: lexical judge, extractive generator",
      "Run,group,Retrieval / Cov@10,Retrieval / alpha_nDCG@10,Tokens,Note",
      "bm25,,0.5,0.4049,1200,k1=0.9",
      "dense_e5,,0.6,0.404,1500,50% <dup>",
      "hybrid,,0.6004,,900,",
      "oracle,reference,0.9,0.9,100,P*",
      "",
    ].join("\n"),
  );
});

Deno.test("tableCsv quotes fields with commas, quotes, newlines and edge spaces", () => {
  const csv = tableCsv(
    {
      columns: [{ key: "v", label: "a,b" }, { key: "s", label: "s" }],
      rows: [{ label: 'say "hi"', values: { v: 1 / 3, s: " x\ny" } }],
    },
    { comments: false },
  );
  assert.equal(csv, 'Run,"a,b",s\n"say ""hi""",0.3333333333333333," x\ny"\n');
});
