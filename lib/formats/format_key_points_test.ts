import assert from "node:assert/strict";
import { formatEntailments, formatKeyPoints } from "./format_key_points.ts";
import { parseEntailments, parseKeyPoints } from "./key_points.ts";

Deno.test("key point files round-trip through format and parse", () => {
  const points = [{
    qid: "q1",
    keypoints: [
      {
        id: "k1",
        text: "The bridge opened in 1932.",
        docId: "d1",
        spans: ["opened in 1932", "made up"],
        mergedFrom: ["o1", "o3"],
        spanStatus: ["exact" as const, "missing" as const],
      },
      { id: "k2", text: "Tolls.", spans: [], mergedFrom: [] },
    ],
  }, { qid: "q2", keypoints: [] }];
  const text = formatKeyPoints(points);
  assert.equal(
    text.split("\n")[0],
    '{"qid":"q1","keypoints":[{"id":"k1","text":"The bridge opened in 1932.","doc_id":"d1",' +
      '"spans":["opened in 1932","made up"],"merged_from":["o1","o3"],' +
      '"span_status":["exact","missing"]},{"id":"k2","text":"Tolls.","spans":[],"merged_from":[]}]}',
  );
  assert.deepEqual(parseKeyPoints(text, { file: "kp.jsonl" }), points);
  const ent = [{
    qid: "q1",
    runId: "r",
    labels: [{ keypointId: "k1", label: "yes" as const, reason: "stated" }, {
      keypointId: "k2",
      label: "omitted" as const,
    }],
  }];
  assert.deepEqual(
    parseEntailments(formatEntailments(ent), { file: "e.jsonl" }),
    [{ ...ent[0], line: 1 }],
  );
});

Deno.test("parseKeyPoints: a span status per span, from the three values", () => {
  const line = (status: unknown) =>
    JSON.stringify({
      qid: "q",
      keypoints: [{ id: "k", text: "t", spans: ["a", "b"], span_status: status }],
    }) + "\n";
  assert.throws(
    () => parseKeyPoints(line(["exact"]), { file: "kp.jsonl" }),
    /kp\.jsonl:1: keypoints\[0\]\.span_status: expected exact, normalized or missing for each span/,
  );
  assert.throws(
    () => parseKeyPoints(line(["exact", "found"]), { file: "kp.jsonl" }),
    /span_status/,
  );
});
