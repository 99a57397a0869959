import assert from "node:assert/strict";
import {
  openWorkspace,
  readEmptyGenerationRuns,
  readGeneratedAnswers,
  readGeneratedTopics,
  readGenerationLengths,
  readRatedItemKinds,
  readReportJudges,
} from "./mod.ts";

const gen = (run: string, topicId: string, text: string | null, extra: object = {}) => ({
  run,
  topicId,
  text,
  condition: run,
  ...extra,
});

Deno.test("generations: topics of a run, runs with only empty reports, input and response lengths", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await ws.upsert("passages", [
      { passageId: "t1:0#0", topicId: "t1", docId: "t1:0", text: "a", tokens: 10 },
      { passageId: "t1:0#1", topicId: "t1", docId: "t1:0", text: "b", tokens: 5 },
    ]);
    await ws.upsert("generations", [
      gen("rag", "t1", "Some text.", { contextIds: ["t1:0#0", "t1:0#1", "t1:9#9"], tokens: 3 }),
      gen("rag", "t2", "", { contextIds: ["t2:0#0"], tokens: 0 }),
      gen("direct", "t1", "  ", { tokens: 0 }),
      gen("direct", "t2", null),
      gen("oracle-result", "t1", "Summary."),
    ]);
    assert.deepEqual((await readGeneratedTopics(ws, "rag")).sort(), ["t1", "t2"]);
    assert.deepEqual(await readGeneratedTopics(ws, "none"), []);
    // White space and null count as empty; one non-empty report makes a run non-empty.
    assert.deepEqual(await readEmptyGenerationRuns(ws), ["direct"]);
    const lengths = (await readGenerationLengths(ws))
      .sort((a, b) => `${a.run}${a.topicId}` < `${b.run}${b.topicId}` ? -1 : 1);
    assert.deepEqual(lengths, [
      { run: "direct", topicId: "t1", response: 0, input: null },
      { run: "direct", topicId: "t2", response: null, input: null },
      { run: "oracle-result", topicId: "t1", response: null, input: null },
      // Only the stored passages of the context count: 10 + 5.
      { run: "rag", topicId: "t1", response: 3, input: 15 },
      { run: "rag", topicId: "t2", response: 0, input: null },
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rated items: report judges and the kind of each rated item", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const r = (itemId: string, judge: string) => ({
      topicId: "t",
      itemId,
      questionId: "t#q1",
      rating: 3,
      judge,
    });
    await ws.upsert("ratings", [
      r("t:0#0", "human"),
      r("t:report", "human"),
      r("t:report:rag", "gpt"),
      r("t:0#1", "umbrela"),
    ]);
    assert.deepEqual(await readReportJudges(ws), ["gpt", "human"]);
    assert.deepEqual(
      await readRatedItemKinds(ws, "human"),
      new Map([["t", new Map([["t:0#0", "passage"], ["t:report", "reference"]])]]),
    );
    assert.deepEqual(await readRatedItemKinds(ws, "nobody"), new Map());
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readGeneratedAnswers: the runs asked (all without a list), by run and topic", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("generations", [
      { run: "b", topicId: "t1", text: "B1", contextIds: ["p1", "p2"] },
      { run: "a", topicId: "t2", text: "A2", contextIds: null },
      { run: "a", topicId: "t1", text: "A1", contextIds: [] },
      { run: "c", topicId: "t1", text: "C1", contextIds: null },
    ]);
    assert.deepEqual(await readGeneratedAnswers(ws, ["b", "a"]), [
      { run: "a", topicId: "t1", text: "A1", contextIds: [] },
      { run: "a", topicId: "t2", text: "A2", contextIds: null },
      { run: "b", topicId: "t1", text: "B1", contextIds: ["p1", "p2"] },
    ]);
    assert.deepEqual((await readGeneratedAnswers(ws)).map((g) => g.run), ["a", "a", "b", "c"]);
    assert.deepEqual(await readGeneratedAnswers(ws, []), []);
  } finally {
    ws.close();
  }
});
