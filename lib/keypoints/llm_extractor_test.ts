import assert from "node:assert/strict";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { llmExtractor } from "./llm_extractor.ts";
import { extractQuestionKeyPoints } from "./extract_question_key_points.ts";
import { testClient } from "./_test_client.ts";

const DOC =
  "The bridge opened in 1932. It cost “ten  million” dollars. Tolls were dropped in 1990.";

Deno.test("llmExtractor: rounds, span checks, a made-up span flagged, a re-run with zero calls", async () => {
  await using server = startOpenAiServer({
    chat: (req) => {
      const prompt = req.messages.at(-1)!.content;
      if (!prompt.includes("The bridge opened")) return { content: "[]" };
      if (prompt.includes("(none yet)")) {
        return {
          content:
            '```json\n[{"point": "The bridge opened in 1932.", "spans": ["The bridge opened in 1932."]},' +
            ' {"point": "It cost ten million dollars.", "spans": ["It cost \\"ten million\\" dollars."]}]\n```',
        };
      }
      if (!prompt.includes("3. ")) {
        // Round 2: one new point whose span is invented, one repeated point.
        return {
          content:
            '[{"point": "Tolls ended in 1990.", "spans": ["tolls were abolished forever"]},' +
            ' {"point": "The bridge opened in 1932.", "spans": ["The bridge opened in 1932."]}]',
        };
      }
      return { content: "[]" }; // round 3: nothing further
    },
  });
  const { client, ws } = await testClient(server.url);
  const q = {
    qid: "q1",
    question: "What about the bridge?",
    documents: [{ docId: "d1", text: DOC }],
  };
  const r = await extractQuestionKeyPoints([q], llmExtractor(client), { rounds: 4 });
  const points = r.keypoints[0].keypoints;
  assert.deepEqual(points.map((p) => [p.id, p.text, p.spanStatus]), [
    ["o1", "The bridge opened in 1932.", ["exact"]],
    ["o2", "It cost ten million dollars.", ["normalized"]],
    ["o3", "Tolls ended in 1990.", ["missing"]],
  ]);
  assert.deepEqual([...r.rounds.get("q1")!.values()], [1, 1, 2]);
  assert.equal(r.flagged, 1);
  assert.equal(r.unfoundSpans, 1);
  assert.deepEqual(r.problems, []);
  assert.equal(server.requests, 3); // rounds 1, 2, and 3 (empty) — round 4 never asked
  server.reset();
  const again = await extractQuestionKeyPoints([q], llmExtractor(client), { rounds: 4 });
  assert.deepEqual(again.keypoints, r.keypoints);
  assert.equal(server.requests, 0);
  ws.close();
});

Deno.test("llmExtractor: bounded re-asks on unparseable output, then a recorded failure", async () => {
  await using server = startOpenAiServer({
    chat: (req, { count }) => {
      const prompt = req.messages.at(-1)!.content;
      if (prompt.includes("Document:\nGOOD")) {
        // First answer malformed, the re-ask parses.
        return {
          content: count === 1 ? "Sure! Here are points" : '[{"point": "G.", "spans": ["GOOD"]}]',
        };
      }
      if (prompt.includes("Document:\nDOWN")) return { status: 500 };
      return { content: '[{"spans": ["no point field"]}]' };
    },
  });
  const { client, ws } = await testClient(server.url);
  const q = {
    qid: "q",
    question: "Q?",
    documents: [{ docId: "a", text: "GOOD" }, { docId: "b", text: "BAD" }, {
      docId: "c",
      text: "DOWN",
    }],
  };
  const r = await extractQuestionKeyPoints([q], llmExtractor(client, { reasks: 2 }), { rounds: 1 });
  assert.deepEqual(r.keypoints[0].keypoints.map((k) => [k.docId, k.text]), [["a", "G."]]);
  assert.deepEqual(r.problems.map((p) => [p.item, p.status]), [["b", "unparsed"], ["c", "failed"]]);
  assert.equal(r.problems[0].raw, '[{"spans": ["no point field"]}]');
  assert.match(r.problems[0].reason, /round 1: item 1 has no "point" string/);
  const bad = [...server.counts].find(([k]) => k.includes("Document:\nBAD"))!;
  assert.equal(bad[1], 3); // first ask + 2 re-asks, then stop
  ws.close();
});
