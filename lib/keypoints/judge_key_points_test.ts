import assert from "node:assert/strict";
import { judgeKeyPoints } from "./judge_key_points.ts";
import type { EntailmentJudge } from "./types.ts";

/** Says yes when the response contains the key point text, fails on "?" responses. */
const scripted: EntailmentJudge = {
  name: "scripted",
  judge: (pairs) =>
    Promise.resolve(
      pairs.map((p) =>
        p.response.includes("?")
          ? {
            id: p.id,
            label: null,
            status: "unparsed" as const,
            reason: "no JSON object found",
            snippet: "",
            raw: "hmm",
          }
          : {
            id: p.id,
            label: p.response.includes(p.keypoint) ? "yes" as const : "neutral" as const,
            status: "ok" as const,
            reason: "r",
            snippet: "",
          }
      ),
    ),
};

Deno.test("judgeKeyPoints: a verdict per key point and response; unusable answers recorded; unknown questions listed", async () => {
  const kp = (id: string) => ({ id, text: id.toUpperCase(), spans: [], mergedFrom: [] });
  const r = await judgeKeyPoints(
    [{ qid: "q1", keypoints: [kp("a"), kp("b")] }, { qid: "q2", keypoints: [kp("c")] }],
    [
      { qid: "q1", runId: "r1", text: "A and more" },
      { qid: "q2", runId: "r1", text: "what?" },
      { qid: "q9", runId: "r1", text: "A" },
    ],
    scripted,
  );
  assert.deepEqual(r.verdicts.map((v) => [v.qid, v.keypointId, v.label]), [
    ["q1", "a", "yes"],
    ["q1", "b", "neutral"],
    ["q2", "c", null],
  ]);
  assert.deepEqual(r.problems, [{
    step: "entail",
    qid: "q2",
    item: "r1",
    status: "unparsed",
    reason: "key point c: no JSON object found",
    raw: "hmm",
  }]);
  assert.deepEqual(r.unknownQuestions, ["q9"]);
});
