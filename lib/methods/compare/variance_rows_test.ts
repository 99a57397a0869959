import assert from "node:assert/strict";
import { measureRow, openWorkspace } from "@lib/store/mod.ts";
import { varianceRows } from "./variance_rows.ts";

const cov = (run: string, judge: string, value: number, topicSet: string | null) =>
  measureRow({
    run,
    topicId: "all",
    measure: "Cov",
    method: "crux",
    judge,
    source: "report",
    value,
    topics: 4,
    topicSet,
  });

Deno.test("varianceRows: each run's spread states its means' topic set; a run whose samples differ is left out", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const a = "answerable(tau=3,n=4)";
    await ws.upsert("measures", [
      cov("bm25", "j#s1", 0.4, a),
      cov("bm25", "j#s2", 0.6, a),
      cov("lancer", "j#s1", 0.7, a),
      cov("lancer", "j#s2", 0.8, a),
      // One sample's mean of direct is over three topics: no spread for direct.
      cov("direct", "j#s1", 0.1, a),
      cov("direct", "j#s2", 0.3, "answerable(tau=3,n=3)"),
    ]);
    const { rows, summary } = await varianceRows(ws, {
      judges: ["j#s1", "j#s2"],
      source: "report",
      base: "j",
      label: "k=2,temperature=0.7",
      samples: 2,
    });
    const get = (run: string, measure: string) =>
      rows.find((r) => r.run === run && r.measure === measure);
    assert.equal(get("bm25", "Cov_mean")?.value, 0.5);
    assert.ok(
      Math.abs(get("bm25", "Cov_max")!.value! - get("bm25", "Cov_min")!.value! - 0.2) < 1e-12,
    );
    assert.equal(get("bm25", "Cov_mean")?.topicSet, a);
    assert.equal(get("lancer", "Cov_sd")?.topicSet, a);
    assert.equal(get("direct", "Cov_mean"), undefined);
    assert.match(summary, /Cov of direct left out: not one stated topic set/);
    // Both samples rank lancer above bm25, as the means do.
    assert.equal(get("", "Cov_ranking_agreement")?.value, 1);
    assert.equal(get("", "Cov_ranking_agreement")?.topicSet, a);
    assert.deepEqual(get("", "samples"), { ...get("", "samples"), value: 2, topicSet: a });
    assert.ok(rows.every((r) => r.topicSet === a), "every row states the set");
  } finally {
    ws.close();
  }
});

Deno.test("varianceRows: runs whose means are over different topic sets give spreads but no stated set across runs", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("measures", [
      cov("bm25", "j#s1", 0.4, "answerable(tau=3,n=4)"),
      cov("bm25", "j#s2", 0.6, "answerable(tau=3,n=4)"),
      cov("lancer", "j#s1", 0.7, "answerable(tau=3,n=3)"),
      cov("lancer", "j#s2", 0.8, "answerable(tau=3,n=3)"),
    ]);
    const { rows } = await varianceRows(ws, {
      judges: ["j#s1", "j#s2"],
      source: "report",
      base: "j",
      label: "k=2,temperature=0.7",
      samples: 2,
    });
    const get = (run: string, measure: string) =>
      rows.find((r) => r.run === run && r.measure === measure)!;
    assert.equal(get("lancer", "Cov_mean").topicSet, "answerable(tau=3,n=3)");
    assert.equal(get("bm25", "Cov_mean").topicSet, "answerable(tau=3,n=4)");
    assert.equal(get("", "Cov_ranking_agreement").topicSet, null);
    assert.equal(get("", "samples").topicSet, null);
  } finally {
    ws.close();
  }
});
