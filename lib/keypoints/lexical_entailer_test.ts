import assert from "node:assert/strict";
import { lexicalEntailer } from "./lexical_entailer.ts";

Deno.test("lexicalEntailer: yes by term share in one sentence, no on a negation mismatch, else neutral", async () => {
  const kp = "The bridge opened in 1932."; // terms bridg, open, 1932
  const r = await lexicalEntailer().judge([
    { id: "yes", keypoint: kp, response: "Rain fell. In 1932 the new bridge opened to traffic." },
    { id: "no", keypoint: kp, response: "The bridge did not open in 1932." },
    { id: "split", keypoint: kp, response: "The bridge is long. It opened later." }, // 1/3 per sentence
    { id: "two", keypoint: kp, response: "The bridge opened late." }, // 2/3
    { id: "low", keypoint: kp, response: "Nothing about it." },
  ]);
  assert.deepEqual(r.map((x) => [x.id, x.label]), [
    ["yes", "yes"],
    ["no", "no"],
    ["split", "neutral"],
    ["two", "yes"],
    ["low", "neutral"],
  ]);
  assert.equal(r[0].snippet, "In 1932 the new bridge opened to traffic.");
  assert.equal(r[0].reason, "100% of the key point's terms in one sentence");
  assert.equal(
    r[1].reason,
    "100% of the key point's terms in one sentence, negated in one of them",
  );
  const strict = await lexicalEntailer({ threshold: 0.9 }).judge([
    { id: "s", keypoint: kp, response: "The bridge opened late." },
  ]);
  assert.deepEqual([strict[0].label, strict[0].reason], [
    "neutral",
    "67% of the key point's terms in one sentence",
  ]);
});
