import assert from "node:assert/strict";
import {
  openWorkspace,
  readMeasures,
  writeKeyPointLabels,
  writeKeypointRows,
} from "@lib/store/mod.ts";
import { scoreKeyPoints } from "@lib/keypoints/mod.ts";
import { measureKeyPoints } from "./work.ts";

Deno.test("KPR: a key point without a label leaves its question and the run mean without KPR, in the measure step and in the scorer crux keypoints score calls", async () => {
  const ids = ["k1", "k2", "k3", "k4"];
  // k1 entailed, k2 not, k3's call failed (no label), k4 never labelled; then all labelled.
  const partial = [["k1", "yes"], ["k2", "no"], ["k3", null]] as const;
  const complete = [["k1", "yes"], ["k2", "no"], ["k3", "no"], ["k4", "no"]] as const;
  for (const [labels, expected] of [[partial, undefined], [complete, 1 / 4]] as const) {
    const dir = await Deno.makeTempDir();
    const ws = await openWorkspace(dir);
    try {
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
      // By hand: with every key point labelled, 1 entailed of 4; with two
      // undecided, no KPR for the question and so none for the run.
      assert.equal(stored?.value, expected);
      const [cli] = scoreKeyPoints(
        [{ qid: "q", keypoints: ids.map((id) => ({ id, text: id, spans: [], mergedFrom: [] })) }],
        labels.map(([keypointId, label]) => ({ qid: "q", runId: "r", keypointId, label })),
        { runs: ["r"], statements: [] },
      );
      // The scorer marks an absent mean NaN (the command prints it as null).
      const kpr = cli.aggregate.KPR;
      assert.equal(kpr === null || Number.isNaN(kpr) ? undefined : kpr, expected);
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
});
