import assert from "node:assert/strict";
import { offlineExtractor } from "./offline_extractor.ts";

const DOC = "Tickets cost a dollar. The bridge opened in 1932 after a flood. " +
  "The bridge crosses the harbour. Weather was fine.";

Deno.test("offlineExtractor: salient sentences by question-term overlap, own text as span, rounds", async () => {
  const q = "When did the bridge open after the flood?";
  const [one] = await offlineExtractor({ perRound: 1 }).extract([{
    id: "x",
    question: q,
    document: DOC,
  }], { rounds: 1 });
  // "bridge opened 1932 flood" shares bridge, open, flood (3); "bridge crosses harbour" shares bridge (1).
  assert.deepEqual(one.points, [{
    text: "The bridge opened in 1932 after a flood.",
    spans: ["The bridge opened in 1932 after a flood."],
    round: 1,
  }]);
  const [two] = await offlineExtractor({ perRound: 1 }).extract(
    [{ id: "x", question: q, document: DOC }],
    { rounds: 3 },
  );
  assert.deepEqual(two.points.map((p) => [p.text, p.round]), [
    ["The bridge opened in 1932 after a flood.", 1],
    ["The bridge crosses the harbour.", 2],
  ]);
  assert.equal(two.rounds, 3); // round 3 found nothing new
  // By default two rounds, as the model-based extractor (Long2RAG asks again for missed points).
  const [byDefault] = await offlineExtractor({ perRound: 1 }).extract([{
    id: "x",
    question: q,
    document: DOC,
  }]);
  assert.deepEqual(byDefault.points.map((p) => p.round), [1, 2]);
  assert.equal(byDefault.rounds, 2);
  assert.equal(offlineExtractor().name, "offline-salient");
});
