import assert from "node:assert/strict";
import { openWorkspace, readKeypointRows, readKeypointSources, writeKeypointRows } from "./mod.ts";

Deno.test("key point rows: sources of a level in name order, rows of one level and source", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const kp = (keypointId: string, level: string, source: string) => ({
      topicId: "t1",
      keypointId,
      level,
      text: `${keypointId} point`,
      docId: level === "original" ? "d1" : null,
      spans: ["a span"],
      spanStatus: level === "original" ? ["exact"] : null,
      mergedFrom: level === "merged" ? ["o1"] : [],
      source,
    });
    await writeKeypointRows(ws, [
      kp("o1", "original", "file:b.jsonl"),
      kp("o1", "original", "extracted:offline"),
      kp("k1", "merged", "extracted:offline"),
    ]);
    assert.deepEqual(await readKeypointSources(ws, "original"), [
      "extracted:offline",
      "file:b.jsonl",
    ]);
    assert.deepEqual(await readKeypointSources(ws, "merged"), ["extracted:offline"]);
    assert.deepEqual(await readKeypointRows(ws, "merged", "extracted:offline"), [
      {
        topicId: "t1",
        keypointId: "k1",
        text: "k1 point",
        docId: null,
        spans: ["a span"],
        spanStatus: null,
        mergedFrom: ["o1"],
      },
    ]);
    assert.deepEqual(
      (await readKeypointRows(ws, "original", "file:b.jsonl")).map((r) => [r.docId, r.spanStatus]),
      [["d1", ["exact"]]],
    );
    assert.deepEqual(await readKeypointRows(ws, "merged", "file:b.jsonl"), []);
  } finally {
    ws.close();
  }
});
