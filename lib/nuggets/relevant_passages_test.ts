import assert from "node:assert/strict";
import { relevantPassages } from "./relevant_passages.ts";
import { nuggetWorkspace } from "./testdata/nugget_workspace.ts";

Deno.test("relevantPassages keeps every passage graded >= 1 by default (AutoNuggetizer), 2 on request", async () => {
  const { ws, dir } = await nuggetWorkspace();
  try {
    const ids = (s: { passages: { passageId: string }[] }) => s.passages.map((p) => p.passageId);
    const [t1, t2, ...rest] = await relevantPassages(ws);
    assert.equal(rest.length, 0); // t3 has no qrels
    // grade 3 (0, 3, 6, 9), grade 2 (the others), then the redundant passage graded 1
    assert.deepEqual(ids(t1), [
      "t1:0#0",
      "t1:3#3",
      "t1:6#6",
      "t1:9#9",
      "t1:1#1",
      "t1:2#2",
      "t1:4#4",
      "t1:5#5",
      "t1:7#7",
      "t1:8#8",
      "t1:10#10",
      "t1:11#11",
      "t1:12#12",
    ]);
    assert.equal(t1.passages.at(-1)!.grade, 1);
    assert.equal(t2.passages.length, 3);
    const [strict] = await relevantPassages(ws, { minGrade: 2 });
    assert.equal(strict.passages.length, 12);
    assert.ok(!ids(strict).includes("t1:12#12"));
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
