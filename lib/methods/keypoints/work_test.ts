import assert from "node:assert/strict";
import {
  openWorkspace,
  readMeasures,
  writeKeyPointLabels,
  writeKeypointRows,
} from "@lib/store/mod.ts";
import { scoreKeyPoints } from "@lib/keypoints/mod.ts";
import { measureKeyPoints } from "./work.ts";

Deno.test("KPR: a key point without a label is not covered, in the measure step and in the scorer crux keypoints score calls", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const ids = ["k1", "k2", "k3", "k4"];
    await writeKeypointRows(
      ws,
      ids.map((id) => ({
        topicId: "q",
        keypointId: id,
        level: "merged",
        text: id,
        spans: [],
        mergedFrom: [],
        source: "s",
      })),
    );
    // k1 entailed, k2 not, k3's call failed (no label), k4 never labelled.
    const labels = [["k1", "yes"], ["k2", "no"], ["k3", null]] as const;
    await writeKeyPointLabels(
      ws,
      labels.map(([id, label]) => ({
        run: "r",
        topicId: "q",
        keypointId: id,
        label,
        status: label === null ? "failed" : "ok",
        judge: "j",
        source: "s",
      })),
    );
    await measureKeyPoints(ws, { runs: ["r"], source: "s", judge: "j" });
    const [stored] = await readMeasures(ws, {
      method: "keypoints",
      topicId: "all",
      measure: "KPR",
      hasValue: true,
    });
    // By hand: 1 covered of 4 key points.
    assert.equal(stored.value, 1 / 4);
    const [cli] = scoreKeyPoints(
      [{ qid: "q", keypoints: ids.map((id) => ({ id, text: id, spans: [], mergedFrom: [] })) }],
      labels.map(([keypointId, label]) => ({ qid: "q", runId: "r", keypointId, label })),
      { runs: ["r"], statements: [] },
    );
    assert.equal(cli.aggregate.KPR, 1 / 4);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
