import assert from "node:assert/strict";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { llmMerger } from "./llm_merger.ts";
import { mergeQuestionKeyPoints } from "./merge_question_key_points.ts";
import { testClient } from "./_test_client.ts";

const kp = (id: string, docId: string, text: string, status: "exact" | "missing" = "exact") => ({
  id,
  text,
  docId,
  spans: [`${text} (span)`],
  mergedFrom: [],
  spanStatus: [status],
});

Deno.test("llmMerger: a merge map covering every original once; an invalid map re-asked, then kept unmerged", async () => {
  await using server = startOpenAiServer({
    chat: (req, { count }) => {
      const prompt = req.messages.at(-1)!.content;
      if (prompt.includes("Question: good")) {
        // The first answer repeats point 1: invalid; the re-ask is a valid map.
        return {
          content: count === 1
            ? '[{"point": "A", "sources": [1, 3]}, {"point": "B", "sources": [1, 2]}]'
            : '[{"point": "Opened 1932", "sources": [1, 3]}, {"point": "Tolls", "sources": [2]}]',
        };
      }
      return { content: '[{"point": "Only one", "sources": [1]}]' }; // always misses point 2
    },
  });
  const { client, ws } = await testClient(server.url);
  const r = await mergeQuestionKeyPoints(
    [
      {
        qid: "q1",
        keypoints: [
          kp("o1", "d1", "Opened 1932"),
          kp("o2", "d1", "Tolls"),
          kp("o3", "d2", "In 1932 it opened", "missing"),
        ],
      },
      { qid: "q2", keypoints: [kp("o1", "d1", "X"), kp("o2", "d2", "Y")] },
      { qid: "q3", keypoints: [kp("o1", "d1", "Alone")] },
    ],
    llmMerger(client, { reasks: 1 }),
    { questions: new Map([["q1", "good"], ["q2", "bad"], ["q3", "single"]]) },
  );
  const [q1, q2, q3] = r.keypoints;
  assert.deepEqual(q1.keypoints.map((k) => [k.id, k.text, k.docId, k.mergedFrom, k.spanStatus]), [
    ["k1", "Opened 1932", "d1", ["o1", "o3"], ["exact", "missing"]],
    ["k2", "Tolls", "d1", ["o2"], ["exact"]],
  ]);
  // Every original in exactly one merged point.
  assert.deepEqual(q1.keypoints.flatMap((k) => k.mergedFrom).sort(), ["o1", "o2", "o3"]);
  assert.deepEqual(q2.keypoints.map((k) => k.mergedFrom), [["o1"], ["o2"]]);
  assert.deepEqual(q3.keypoints.map((k) => [k.text, k.mergedFrom]), [["Alone", ["o1"]]]);
  assert.deepEqual(r.problems.map((p) => [p.step, p.qid, p.status]), [["merge", "q2", "unparsed"]]);
  assert.match(
    r.problems[0].reason,
    /input points 2 are in no merged point; originals kept unmerged/,
  );
  assert.equal(
    server.countFor([...server.counts.keys()].find((k) => k.includes("Question: bad"))!),
    2,
  );
  assert.equal(server.requests, 4); // q1 twice, q2 twice, q3 not sent
  server.reset();
  await mergeQuestionKeyPoints(
    [{
      qid: "q1",
      keypoints: [
        kp("o1", "d1", "Opened 1932"),
        kp("o2", "d1", "Tolls"),
        kp("o3", "d2", "In 1932 it opened", "missing"),
      ],
    }],
    llmMerger(client, { reasks: 1 }),
    { questions: new Map([["q1", "good"]]) },
  );
  assert.equal(server.requests, 0);
  ws.close();
});
