import assert from "node:assert/strict";
import { clearMethodMeasures, measureRow, openWorkspace, writeMethodMeasures } from "./mod.ts";

Deno.test("clearMethodMeasures: one method, judge and source, optionally some runs", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const row = (run: string, method: string, judge: string, source: string) =>
      measureRow({
        run,
        topicId: "all",
        measure: `${method}_m`,
        method,
        judge,
        source,
        value: 0.5,
      });
    await writeMethodMeasures(ws, [
      row("a", "nuggets", "j", "o"),
      row("b", "nuggets", "j", "o"),
      row("a", "nuggets", "k", "o"),
      row("a", "nuggets", "j", "p"),
      row("a", "subq", "j", "o"),
    ]);
    const left = async () =>
      (await ws.query<{ k: string }>(
        `SELECT run || ' ' || method || ' ' || judge || ' ' || source AS k FROM measures ORDER BY k`,
      )).map((r) => r.k);
    assert.equal(
      await clearMethodMeasures(ws, "nuggets", {
        judgeSources: [{ judge: "j", source: "o" }],
        runs: ["a"],
      }),
      1,
    );
    assert.deepEqual(await left(), [
      "a nuggets j p",
      "a nuggets k o",
      "a subq j o",
      "b nuggets j o",
    ]);
    assert.equal(
      await clearMethodMeasures(ws, "subq", { judgeSources: [{ judge: "j", source: "o" }] }),
      1,
    );
    // An empty run list deletes nothing.
    assert.equal(await clearMethodMeasures(ws, "nuggets", { runs: [] }), 0);
    assert.deepEqual(await left(), ["a nuggets j p", "a nuggets k o", "b nuggets j o"]);
  } finally {
    ws.close();
  }
});
