import assert from "node:assert/strict";
import { openWorkspace } from "@lib/store/mod.ts";
import { generateReports } from "./generate_reports.ts";

Deno.test("generateReports notes how many topics the 2,500-token cap clips, and which", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-generate-" });
  const ws = await openWorkspace(dir);
  try {
    await ws.upsert("topics", [
      { topicId: "long", request: "Report on the long topic." },
      { topicId: "short", request: "Report on the short topic." },
    ]);
    const passage = (topicId: string, j: number, tokens: number) => ({
      passageId: `${topicId}:0#${j}`,
      topicId,
      docId: `${topicId}:0`,
      text: `Passage ${j} of the ${topicId} topic states a fact.`,
      tokens,
    });
    await ws.upsert("passages", [
      passage("long", 0, 1800),
      passage("long", 1, 1200),
      passage("short", 0, 300),
    ]);
    await ws.upsert("qrels", [
      { name: "crux_pr", topicId: "long", subtopic: "0", docId: "long:0#0", grade: 3 },
      { name: "crux_pr", topicId: "long", subtopic: "0", docId: "long:0#1", grade: 3 },
      { name: "crux_pr", topicId: "short", subtopic: "0", docId: "short:0#0", grade: 3 },
    ]);
    const notes: string[] = [];
    const s = await generateReports(ws, {
      run: "oracle",
      condition: "oracle-context",
      storeHuman: false,
      onNote: (m) => notes.push(m),
    });
    assert.equal(s.written, 2);
    assert.deepEqual(notes.filter((n) => n.includes("-token cap")), [
      "1 of 2 topics have an oracle budget above the 2500-token cap and are clipped to it (long)",
    ]);
    const lifted: string[] = [];
    await generateReports(ws, {
      run: "oracle-uncapped",
      condition: "oracle-context",
      storeHuman: false,
      budgetCap: Infinity,
      onNote: (m) => lifted.push(m),
    });
    assert.deepEqual(lifted.filter((n) => n.includes("-token cap")), []);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
