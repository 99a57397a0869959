import assert from "node:assert/strict";
import { openWorkspace } from "@lib/store/mod.ts";
import { storeKeyPoints } from "./store_key_points.ts";
import { readStoredKeyPoints } from "./read_key_points.ts";

Deno.test("storeKeyPoints and readStoredKeyPoints round-trip, topics and ids in natural order", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  const points = [
    {
      qid: "t2",
      keypoints: [
        {
          id: "k1",
          text: "A",
          docId: "d",
          spans: ["a", "x"],
          mergedFrom: ["o1", "o2"],
          spanStatus: ["exact" as const, "missing" as const],
        },
        { id: "k10", text: "C", spans: [], mergedFrom: ["o3"] },
        { id: "k2", text: "B", spans: [], mergedFrom: ["o4"] },
      ],
    },
    { qid: "t10", keypoints: [{ id: "k1", text: "Z", spans: [], mergedFrom: [] }] },
  ];
  assert.equal(await storeKeyPoints(ws, points, { level: "merged", source: "file:a.jsonl" }), 4);
  const { keypoints, source } = await readStoredKeyPoints(ws, { level: "merged" });
  assert.equal(source, "file:a.jsonl");
  assert.deepEqual(keypoints.map((q) => [q.qid, q.keypoints.map((k) => k.id)]), [
    ["t2", ["k1", "k2", "k10"]],
    ["t10", ["k1"]],
  ]);
  assert.deepEqual(keypoints[0].keypoints[0], points[0].keypoints[0]);
  await storeKeyPoints(ws, points, { level: "merged", source: "file:b.jsonl" });
  await assert.rejects(
    () => readStoredKeyPoints(ws, { level: "merged" }),
    /merged key points from file:a\.jsonl, file:b\.jsonl; name one as source/,
  );
  ws.close();
});
