import assert from "node:assert/strict";
import type { RunRow } from "@lib/types/mod.ts";
import { contextSizeTable } from "./context_size_table.ts";
import { tinyData } from "./testdata/tiny_data.ts";

const ranking = (run: string, topicId: string, ids: string[]): RunRow[] =>
  ids.map((docId, i) => ({ run, topicId, docId, rank: i + 1, score: 10 - i }));

/** The tiny data with one retrieval run per pipeline whose top 2 is the pipeline's context. */
function withRuns() {
  const data = tinyData();
  const runs = new Map([
    ["a", [
      ...ranking("a", "t1", ["t1:0#0", "t1:0#1", "t1:1#3"]),
      ...ranking("a", "t2", ["t2:0#2", "t2:0#0", "t2:0#1"]),
    ]],
    ["b", [
      ...ranking("b", "t1", ["t1:1#3", "t1:1#2", "t1:0#0"]),
      ...ranking("b", "t2", ["t2:0#1", "t1:0#0", "t2:0#0"]),
    ]],
    ["c", [
      ...ranking("c", "t1", ["t1:1#2", "t1:1#4", "t1:1#3"]),
      ...ranking("c", "t2", ["t2:0#2", "t2:0#1", "t2:0#0"]),
    ]],
  ]);
  return { ...data, runs };
}

const close = (a: number | undefined, b: number, what: string) =>
  assert.ok(a !== undefined && Math.abs(a - b) < 1e-9, `${what}: ${a} != ${b}`);

Deno.test("contextSizeTable: at top-|P*| the taus equal the main table's; deeper contexts differ", () => {
  const r = contextSizeTable(withRuns(), { cutoffs: ["oracle", 3] });
  const t = (k: number | "oracle", c: string, rep: string) =>
    r.data.taus.find((x) => x.cutoff === k && x.context === c && x.report === rep)?.value;
  close(t("oracle", "covZ", "covY"), 1 / 3, "covZ@|P*| vs covY");
  close(t("oracle", "denZ", "denY"), 1, "denZ@|P*| vs denY");
  // Recall@3 with required passages relevant: a 1, b 0.75, c 0.5.
  const recall = r.data.means.filter((m) => m.cutoff === 3 && m.measure === "recall").map((m) =>
    m.value
  );
  assert.deepEqual(recall, [1, 0.75, 0.5]);
  close(t(3, "recall", "covY"), 1 / 3, "recall@3 vs covY");
  close(t(3, "recall", "denY"), 1, "recall@3 vs denY");
  // Every pipeline covers all of A within its top 3: a constant ranking has no tau.
  assert.ok(Number.isNaN(t(3, "covZ", "covY")!));
  assert.ok(r.data.taus.every((x) => x.pipelines === 3));
});

Deno.test("contextSizeTable: table layout, cutoff groups and left-out pipelines", () => {
  const r = contextSizeTable(withRuns());
  const tb = r.table!;
  assert.deepEqual(tb.rows.map((x) => x.label), [
    "Cov(Z)",
    "α-nDCG",
    "Recall",
    "MAP",
    "nDCG",
    "Den(Z)",
  ]);
  assert.deepEqual(
    tb.columns.map((c) => `${c.group}/${c.label}`),
    [
      "top-|P*|/Cov(y)",
      "top-|P*|/Den(y)",
      "top-10/Cov(y)",
      "top-10/Den(y)",
      "top-20/Cov(y)",
      "top-20/Den(y)",
    ],
  );
  // The fixture's only run is bm25: its top 2 matches a's context on t2 and b's on t1, so both
  // are inferred to use it; no run matches c's contexts, so c is left out.
  const plain = contextSizeTable(tinyData());
  assert.ok(plain.table!.notes!.some((n) => n === "Left out (no retrieval run found): c."));
});
