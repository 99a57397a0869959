import assert from "node:assert/strict";
import type { RunRow } from "@lib/types/mod.ts";
import { tableMarkdown } from "@lib/report/mod.ts";
import { contextSizeTable } from "./context_size_table.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import { tinyData as tiny, tinyExtract } from "./testdata/tiny_data.ts";
import { withStoredMeasures } from "./testdata/stored_measures.ts";
import { withStatistics } from "./testdata/with_statistics.ts";
import type { CruxData } from "./types.ts";

/** The data with the statistics the statistics stage stores for these context-size tables. */
const stats = <D extends CruxData>(data: D, opts: Parameters<typeof contextSizeTable>[1] = {}) =>
  withStatistics(data, (d) => [contextSizeTable(d, opts)]);
const tinyData = () => stats(tiny(), { cutoffs: ["oracle"] });

const ranking = (run: string, topicId: string, ids: string[]): RunRow[] =>
  ids.map((docId, i) => ({ run, topicId, docId, rank: i + 1, score: 10 - i }));

/** The tiny data with one retrieval run per pipeline whose top 2 is the pipeline's context. */
function withRuns(opts: { empty?: string } = {}) {
  const data = tinyExtract();
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
  if (opts.empty) runs.set(opts.empty, []);
  // What the measure stages store for these runs, at every depth the tests ask.
  const stored = withStoredMeasures({ ...data, runs }, { cutoffs: ["oracle", 3, 10, 20] });
  const conditions = resolveConditions(stored);
  // ... and the statistics the statistics stage stores for the tables the tests show.
  const one = conditions.filter((c) => c.kind !== "pipeline" || c.name === "a");
  return withStatistics(stored, (d) => [
    contextSizeTable(d),
    contextSizeTable(d, { cutoffs: ["oracle"] }),
    contextSizeTable(d, { cutoffs: ["oracle", 3] }),
    contextSizeTable(d, { conditions: one, cutoffs: ["oracle"] }),
  ]);
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

Deno.test("contextSizeTable explains every – cell: tau is undefined for a constant measure", () => {
  const r = contextSizeTable(withRuns(), { cutoffs: ["oracle", 3] });
  const undefinedTaus = r.data.taus.filter((x) => Number.isNaN(x.value));
  // At top-3 every pipeline covers all of A and has the same density: Cov(Z) and Den(Z) are
  // constant across the pipelines, so their taus are undefined.
  assert.deepEqual(
    undefinedTaus.map((x) => [x.cutoff, x.context, x.report, x.undefinedBecause]),
    [
      [3, "covZ", "covY", "constant-context"],
      [3, "covZ", "denY", "constant-context"],
      [3, "denZ", "covY", "constant-context"],
      [3, "denZ", "denY", "constant-context"],
    ],
  );
  assert.ok(r.data.taus.every((x) => Number.isNaN(x.value) === (x.undefinedBecause !== undefined)));
  const row = r.table!.rows.find((x) => x.label === "Cov(Z)")!;
  assert.deepEqual([row.values["tiny:3:covY"], row.values["tiny:3:denY"]], [null, null]);
  const note =
    "– = τ undefined: the measure is constant across pipelines (Cov(Z) at top-3, Den(Z) at top-3).";
  assert.deepEqual(r.table!.notes!.filter((n) => n.startsWith("– =")), [note]);
  assert.ok(tableMarkdown(r.table!).includes(note), "the note is printed under the table");
  // With only top-|P*| every tau is defined, and no dash note is added.
  const oracle = contextSizeTable(withRuns(), { cutoffs: ["oracle"] });
  assert.ok(oracle.data.taus.every((x) => !Number.isNaN(x.value)));
  assert.ok(!oracle.table!.notes!.some((n) => n.includes("undefined")));
});

Deno.test("contextSizeTable lists every constant measure in one note", () => {
  // Without runs of their own, pipelines a and b are both inferred to use bm25: every context
  // measure is the same for both, so all taus are undefined.
  const r = contextSizeTable(tinyData(), { cutoffs: ["oracle"] });
  assert.ok(r.data.taus.every((x) => x.undefinedBecause?.startsWith("constant-")));
  assert.deepEqual(r.table!.notes!.filter((n) => n.startsWith("– = ")), [
    "– = τ undefined: the measure is constant across pipelines (Cov(Z) at top-|P*|, " +
    "α-nDCG at top-|P*|, Recall at top-|P*|, MAP at top-|P*|, nDCG at top-|P*|, Den(Z) at top-|P*|).",
  ]);
});

Deno.test("contextSizeTable says when too few pipelines leave tau undefined", () => {
  const data = withRuns();
  const conditions = resolveConditions(data).filter((c) => c.kind !== "pipeline" || c.name === "a");
  const r = contextSizeTable(data, { conditions, cutoffs: ["oracle"] });
  assert.ok(r.data.taus.every((x) => x.undefinedBecause === "too-few-pipelines"));
  assert.deepEqual(r.table!.notes!.filter((n) => n.startsWith("– = ")), []);
  assert.deepEqual(r.table!.notes!.filter((n) => n.startsWith("n/a")), [
    "n/a (n=1): Kendall τ is not reported over fewer than 4 pipelines; over 1 it can only take a few values (±1 over two) and says nothing about agreement.",
  ]);
  const cells = r.table!.rows.flatMap((row) => Object.values(row.values));
  assert.ok(cells.every((v) => v === "n/a (n=1)"), "never a number, never bold");
});

Deno.test("contextSizeTable leaves a tau blank when a pipeline has no value, naming it", () => {
  const conditions = resolveConditions(withRuns());
  // Pipeline c's run has no ranking: no context measure stored.
  const r = contextSizeTable(withRuns({ empty: "c" }), { conditions, cutoffs: ["oracle"] });
  // Never a tau over a and b alone: absent, with the stored reason.
  assert.ok(r.data.taus.every((x) => Number.isNaN(x.value) && x.pipelines === 0));
  assert.ok(
    r.data.taus.every((x) =>
      /^1 of 3 inputs have no stored value: c \S+ at top-\|P\*\|: no stored mean of the ranking/
        .test(x.reason ?? "")
    ),
    JSON.stringify(r.data.taus[0]),
  );
  const named = r.table!.notes!.filter((n) => n.startsWith("Blank where a pipeline"));
  assert.equal(named.length, 1);
  assert.ok(named[0].includes("c Den(Z) at top-|P*|: no stored mean of the ranking"), named[0]);
  assert.ok(r.table!.rows.every((row) => Object.values(row.values).every((v) => v === null)));
});
