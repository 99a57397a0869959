import assert from "node:assert/strict";
import { join } from "node:path";
import { type Analysis, cellTopicSets, saveAnalysis } from "@lib/analysis/mod.ts";
import { methodStages } from "@lib/methods/mod.ts";
import { runStages } from "@lib/pipeline/run_stages.ts";
import { openWorkspace, readMeasures } from "@lib/store/mod.ts";
import { checkCells } from "../../../tests/support/check_cells.ts";
import { subqAnalyses } from "./analyses.ts";
import { SUBQ_STAGES } from "./stages.ts";
import { subqWinRates } from "./win_rate_measures.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;

Deno.test({
  name: "measure:subq stores the win rates; subq_win_rates shows them, equal to a hand count",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-subq-wins-" });
    const ws = await openWorkspace(dir);
    try {
      const v = (topicId: string, runA: string, runB: string, verdict: string, judge = "m") => ({
        topicId,
        runA,
        runB,
        judge,
        forward: verdict,
        swapped: verdict,
        verdict,
      });
      // Judge m: a vs b on four topics (t4 stored as b vs a), a vs c on two, b vs c never.
      // Judge z: one tie of a vs b (fewer verdicts: not the table's judge).
      await ws.upsert("subq_pairwise", [
        v("t1", "a", "b", "A"),
        v("t2", "a", "b", "A"),
        v("t3", "a", "b", "tie"),
        v("t4", "b", "a", "A"),
        v("t1", "a", "c", "B"),
        v("t2", "a", "c", "tie"),
        v("t1", "a", "b", "tie", "z"),
      ]);
      // Before the stage the table shows no number and says why.
      const before = (await subqAnalysesWith(ws)).find((a) => a.name === "subq_win_rates")!;
      assert.deepEqual(before.table!.rows.map((r) => r.values), [
        { c0: null, c1: null, c2: null },
        { c0: null, c1: null, c2: null },
        { c0: null, c1: null, c2: null },
      ]);
      const reason = (a: Analysis, row: string, column: string) =>
        a.cells!.find((c) => c.row === row && c.column === column)?.reason;
      assert.equal(reason(before, "a", "c1"), "not stored: run the measure:subq stage");
      assert.equal(reason(before, "b", "c2"), "no verdicts for the pair");
      assert.equal(reason(before, "a", "c0"), "a system is not compared with itself");

      // The measure:subq stage alone (its upstream judgments are the rows above).
      const specs = await methodStages(
        "subq",
        SUBQ_STAGES.parse({ variants: [] }, join(ROOT, "x.json")),
        {
          backend: "offline",
          answerRuns: ["a", "b", "c"],
          answerStages: [],
          dataStages: [],
          judgeStages: [],
          outDir: "unused",
          configFile: join(ROOT, "x.json"),
        },
      );
      const measure = specs.find((s) => s.id === "measure:subq")!;
      assert.equal(measure.version, 3);
      assert.ok(measure.deps.includes("judge:subq-pairwise"));
      const r = await runStages(ws, [{ ...measure, deps: [] }], { order: ["measure"] });
      assert.deepEqual(r.ran, ["measure:subq"]);

      // By hand, judge m: a over b 2 wins, 1 loss, 1 tie -> (2 + 0.5) / 4 = 0.625, net
      // (2 - 1) / 4 = 0.25; b over a 0.375, net -0.25. a over c 0 wins, 1 loss, 1 tie
      // -> 0.5 / 2 = 0.25, net -0.5; c over a 0.75, net 0.5. Judge z: a over b 0.5.
      const rows = await readMeasures(ws, { method: "subq", source: subqWinRates.source });
      const stored = (judge: string, run: string, kind: string, opponent: string) => {
        const found = rows.filter((x) =>
          x.judge === judge && x.run === run && x.measure === `subq_${kind}_vs_${opponent}`
        );
        assert.equal(found.length, 1, `${judge} ${run} ${kind} ${opponent}`);
        return [found[0].value, found[0].topics, found[0].topicSet];
      };
      assert.deepEqual(stored("m", "a", "win_rate", "b"), [0.625, 4, "scored(n=4)"]);
      assert.deepEqual(stored("m", "b", "win_rate", "a"), [0.375, 4, "scored(n=4)"]);
      assert.deepEqual(stored("m", "a", "net_win_rate", "b"), [0.25, 4, "scored(n=4)"]);
      assert.deepEqual(stored("m", "b", "net_win_rate", "a"), [-0.25, 4, "scored(n=4)"]);
      assert.deepEqual(stored("m", "a", "win_rate", "c"), [0.25, 2, "scored(n=2)"]);
      assert.deepEqual(stored("m", "c", "win_rate", "a"), [0.75, 2, "scored(n=2)"]);
      assert.deepEqual(stored("m", "a", "net_win_rate", "c"), [-0.5, 2, "scored(n=2)"]);
      assert.deepEqual(stored("m", "c", "net_win_rate", "a"), [0.5, 2, "scored(n=2)"]);
      assert.deepEqual(stored("z", "a", "win_rate", "b"), [0.5, 1, "scored(n=1)"]);
      // Four ordered pairs of m and two of z, two values each; b and c were never compared.
      assert.equal(rows.length, (4 + 2) * 2);

      const out = (await subqAnalysesWith(ws)).find((a) => a.name === "subq_win_rates")!;
      assert.deepEqual(out.table!.rows.map((x) => [x.label, x.values]), [
        ["a", { c0: null, c1: 0.625, c2: 0.25 }],
        ["b", { c0: 0.375, c1: null, c2: null }],
        ["c", { c0: 0.75, c1: null, c2: null }],
      ]);
      assert.ok(out.table!.notes!.includes("verdicts of other pairwise judges not shown: z"));
      const shown = out.cells!.find((c) => c.row === "c" && c.column === "c0")!;
      assert.deepEqual(shown.key, {
        run: "c",
        source: "pairwise",
        judge: "m",
        measure: "subq_win_rate_vs_a",
        topicId: "all",
        topicSet: "scored(n=2)",
      });
      assert.equal(shown.derived, undefined);
      assert.equal(reason(out, "b", "c2"), "no verdicts for the pair");
      assert.equal(reason(out, "c", "c1"), "no verdicts for the pair");
      assert.ok(out.figure);
      // Saved, every shown cell is its stored row and every blank has a reason.
      const outDir = await Deno.makeTempDir({ prefix: "crux-subq-wins-out-" });
      try {
        await saveAnalysis(out, outDir);
        ws.close();
        const checked = await checkCells(outDir, dir);
        assert.deepEqual([checked.stored, checked.derived, checked.blank], [4, 0, 5]);
      } finally {
        await Deno.remove(outDir, { recursive: true });
      }
    } finally {
      try {
        ws.close();
      } catch { /* closed above */ }
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** The analyses with the stored topic set on each cell key, as the experiment saves them. */
async function subqAnalysesWith(ws: Awaited<ReturnType<typeof openWorkspace>>) {
  const withSets = await cellTopicSets(ws);
  // No coverage judgments: name the coverage judge, so the method's tables are made.
  return (await subqAnalyses(ws, { judge: "lexical coverage (offline)" })).map(withSets);
}
