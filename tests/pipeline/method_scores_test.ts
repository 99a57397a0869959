import assert from "node:assert/strict";
import { METHOD_HEADLINES } from "@lib/methods/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { methodScores } from "@lib/pipeline/method_scores.ts";
import { methodMeasureRows, RUNS, TOPICS, VALUES } from "@lib/pipeline/testdata/method_measures.ts";

Deno.test("methodScores reads each method's headline per (run, topic); absent methods are missing", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("measures", methodMeasureRows());
    const r = await methodScores(ws, { methods: METHOD_HEADLINES });
    // The fixture's methods are present, in registry order, with their stored judge and source.
    const inFixture = METHOD_HEADLINES.filter((h) => h.method in VALUES);
    assert.equal(inFixture.length, Object.keys(VALUES).length);
    assert.deepEqual(
      r.present.map((p) => [p.method, p.judge, p.source, p.runs.length]),
      inFixture.map((h) => [h.method, "lexical", h.source ?? "", RUNS.length]),
    );
    assert.equal(r.present.find((p) => p.method === "crux")?.source, "report");
    assert.deepEqual(
      r.missing.map((m) => m.method),
      METHOD_HEADLINES.filter((h) => !(h.method in VALUES)).map((h) => h.method),
    );
    assert.equal(r.scores.length, inFixture.length * RUNS.length * TOPICS.length);
    const kpr = r.scores.find((s) =>
      s.method === "keypoints" && s.run === RUNS[3] && s.topicId === TOPICS[2]
    );
    assert.equal(kpr?.value, VALUES.keypoints[3][2]);
    assert.ok(!r.scores.some((s) => s.run === "bm25" || s.value === 9));
    const only = await methodScores(ws, { methods: METHOD_HEADLINES, runs: ["direct"] });
    assert.deepEqual([...new Set(only.scores.map((s) => s.run))], ["direct"]);
  } finally {
    ws.close();
  }
});

Deno.test("methodScores: several judges need a choice, and the error lists them", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const rows = methodMeasureRows();
    await ws.upsert("measures", rows);
    await ws.upsert(
      "measures",
      rows.filter((r) => r.method === "nuggets").map((r) => ({ ...r, judge: "gpt", value: 0 })),
    );
    await assert.rejects(
      () => methodScores(ws, { methods: METHOD_HEADLINES }),
      /Method "nuggets" has strict_vital rows by several judges or sources: "gpt", "lexical"; choose one/,
    );
    // Judge samples of the variance stage are not judges.
    await ws.upsert(
      "measures",
      rows.filter((r) => r.method === "crux").map((r) => ({
        ...r,
        judge: "lexical#s2",
        value: 0.5,
      })),
    );
    const r = await methodScores(ws, { methods: METHOD_HEADLINES, judges: { nuggets: "gpt" } });
    assert.equal(r.present.find((p) => p.method === "crux")?.judge, "lexical");
    assert.ok(r.scores.filter((s) => s.method === "nuggets").every((s) => s.value === 0));
    await ws.upsert(
      "measures",
      rows.filter((r) => r.method === "keypoints").map((r) => ({
        ...r,
        source: "labels.jsonl",
        value: 1,
      })),
    );
    await assert.rejects(
      () => methodScores(ws, { methods: METHOD_HEADLINES, judges: { nuggets: "gpt" } }),
      /"keypoints" has KPR rows by several judges or sources: "lexical", "lexical" \(source labels\.jsonl\)/,
    );
    const bySource = await methodScores(ws, {
      methods: METHOD_HEADLINES,
      judges: { nuggets: "gpt" },
      sources: { keypoints: "labels.jsonl" },
    });
    assert.ok(bySource.scores.filter((s) => s.method === "keypoints").every((s) => s.value === 1));
    await assert.rejects(
      () => methodScores(ws, { methods: METHOD_HEADLINES, judges: { crux: "nobody" } }),
      /Method "crux" has no Cov rows by judge "nobody"; its judges: "lexical" \(source report\)/,
    );
  } finally {
    ws.close();
  }
});
