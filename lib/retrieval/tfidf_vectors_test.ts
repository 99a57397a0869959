import assert from "node:assert/strict";
import { cosine } from "./cosine.ts";
import { tfidfVectors } from "./tfidf_vectors.ts";

Deno.test("tfidfVectors weighs terms by smoothed idf and normalises", () => {
  const texts = ["Storms hit the coast", "coast guard", ""];
  const { vectors, terms, idf } = tfidfVectors(texts);
  assert.deepEqual(terms, ["storm", "hit", "coast", "guard"]);
  // N = 3: idf(storm) = ln(4/2) + 1, idf(coast) = ln(4/3) + 1.
  assert.ok(Math.abs(idf[0] - (Math.LN2 + 1)) < 1e-12);
  assert.ok(Math.abs(idf[2] - (Math.log(4 / 3) + 1)) < 1e-12);
  const [s, h, c] = [idf[0], idf[1], idf[2]];
  const n0 = Math.sqrt(s * s + h * h + c * c);
  assert.deepEqual([...vectors[0].indices], [0, 1, 2]);
  assert.ok(Math.abs(vectors[0].values[2] - c / n0) < 1e-6);
  const n1 = Math.sqrt(c * c + idf[3] * idf[3]);
  assert.ok(Math.abs(cosine(vectors[0], vectors[1]) - (c / n0) * (c / n1)) < 1e-6);
  assert.equal(vectors[2].indices.length, 0);
  assert.deepEqual(texts, ["Storms hit the coast", "coast guard", ""]);
});

Deno.test("tfidfVectors uses 1 + ln(tf) when sublinear", () => {
  const { vectors, idf } = tfidfVectors(["storm storm storm coast", "x"], { sublinearTf: true });
  const a = (1 + Math.log(3)) * idf[0];
  const b = idf[1];
  assert.ok(Math.abs(vectors[0].values[0] - a / Math.hypot(a, b)) < 1e-6);
});
