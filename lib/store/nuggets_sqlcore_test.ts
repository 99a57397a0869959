import assert from "node:assert/strict";
import { openWorkspace, readNuggetSupport, readNuggetTopicCounts } from "./mod.ts";

Deno.test("nugget reads: support credit and failed labels per run and importance; counts per topic", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const n = (
      topicId: string,
      ordinal: number,
      importance: string,
      kept: boolean | null = true,
    ) => ({
      topicId,
      origin: "o",
      ordinal,
      text: `n${ordinal}`,
      importance,
      kept,
    });
    await ws.upsert("nuggets", [
      n("t", 1, "vital"),
      n("t", 2, "okay"),
      n("t", 3, "failed", null),
      n("t", 4, "okay", false),
      n("u", 1, "vital"),
      { ...n("t", 1, "vital"), origin: "other" },
    ]);
    await ws.upsert("nugget_passages", [
      { topicId: "t", origin: "o", ordinal: 1, passageId: "t:0#0", windowIndex: 0 },
      { topicId: "t", origin: "o", ordinal: 2, passageId: "t:0#1", windowIndex: 0 },
      { topicId: "t", origin: "o", ordinal: 3, passageId: "t:0#2", windowIndex: 1 },
    ]);
    const a = (run: string, topicId: string, ordinal: number, label: string, judge = "j") => ({
      run,
      topicId,
      origin: "o",
      ordinal,
      judge,
      label,
    });
    await ws.upsert("nugget_assignments", [
      a("r", "t", 1, "support"),
      a("r", "u", 1, "partial_support"),
      a("r", "t", 2, "failed"),
      a("r", "t", 3, "partial_support"),
      a("r", "t", 4, "not_support"),
      a("r", "t", 1, "not_support", "other"),
    ]);
    const support = (await readNuggetSupport(ws, "o", "j"))
      .sort((x, y) => x.importance < y.importance ? -1 : 1);
    // okay = every importance but vital: (0 + 0.5 + 0) / 3, one failed label; vital: (1 + 0.5) / 2.
    assert.equal(support.length, 2);
    assert.deepEqual(support[0], { run: "r", importance: "okay", credit: 0.5 / 3, failed: 1 });
    assert.deepEqual(support[1], { run: "r", importance: "vital", credit: 0.75, failed: 0 });
    const topics = (await readNuggetTopicCounts(ws, "o"))
      .sort((x, y) => x.topicId < y.topicId ? -1 : 1);
    assert.deepEqual(topics, [
      { topicId: "t", passages: 3, windows: 2, nuggets: 4, vital: 1, okay: 2, failed: 1, kept: 3 },
      { topicId: "u", passages: 0, windows: 0, nuggets: 1, vital: 1, okay: 0, failed: 0, kept: 1 },
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
