import assert from "node:assert/strict";
import { measureContexts } from "@lib/methods/mod.ts";
import { evaluateContexts } from "@lib/analysis/context_evaluation.ts";
import { tinyWorkspace } from "@lib/analysis/testdata/tiny_workspace.ts";

Deno.test("evaluateContexts shows what the measure step stored and evaluates nothing itself", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await tinyWorkspace(dir);
  try {
    const opts = { runs: ["bm25"], cutoffs: [2, "oracle" as const], judge: "human" };
    // Before the measure stage: every context is blank and named, none evaluated here.
    const fresh = await evaluateContexts(ws, opts);
    assert.deepEqual(fresh.computed, ["bm25 top-2", "bm25 top-|P*|", "oracle context P*"]);
    assert.deepEqual(fresh.means, []);
    assert.deepEqual(fresh.perTopic, []);
    await measureContexts(ws, [], {
      judge: "human",
      evaluation: { runs: ["bm25"], cutoffs: [2, "oracle"] },
    });
    const stored = await evaluateContexts(ws, opts);
    assert.deepEqual(stored.computed, []);
    // The empty context is 0 on the topics the stored contexts average.
    assert.deepEqual(
      stored.means.filter((m) => m.run === "empty context").map((m) => m.value),
      [0, 0, 0, 0, 0, 0],
    );
    assert.equal(stored.topicCounts["bm25 top-2|Cov"], 2);
    // Hand-checked: bm25's top 2 on t1 is [1#3, 1#2]: 1#3 answers q1 and q2 = A(3); on t2
    // [0#2, 0#0] answers q1 and q2 (0#2 rates 3 on both): Cov@2 = 1 on both topics.
    assert.equal(stored.means.find((m) => m.run === "bm25 top-2" && m.measure === "Cov")?.value, 1);
    // P* (Den 1 by construction).
    assert.equal(
      stored.means.find((m) => m.run === "oracle context P*" && m.measure === "Den")?.value,
      1,
    );
    // The table reads the stored row: a changed stored mean is what it shows.
    await ws.exec(
      `UPDATE measures SET value = 0.125 WHERE run = 'bm25' AND topic_id = 'all'
       AND measure = 'Cov@2' AND source = 'ranking(tau=3)'`,
    );
    const changed = await evaluateContexts(ws, opts);
    assert.equal(
      changed.means.find((m) => m.run === "bm25 top-2" && m.measure === "Cov")?.value,
      0.125,
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
