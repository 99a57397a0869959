import assert from "node:assert/strict";
import { lexicalRerank } from "./lexical_rerank.ts";

Deno.test("lexicalRerank scores candidates by BM25 over the candidate set, query expanded", () => {
  const candidates = [
    { docId: "a", text: "storm" },
    { docId: "b", text: "flood flood" },
    { docId: "c", text: "storm flood" },
    { docId: "d", text: "sunny day" },
  ];
  // Hand-computed with Lucene's BM25 (no (k1 + 1) factor), exact lengths (avgdl = 7/4),
  // k1 = 0.9, b = 0.4: idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)), N = 4,
  // df(storm) = df(flood) = 2; "how", "was", "the" are stopwords, "bad" matches nothing.
  const idf = Math.log(1 + 2.5 / 2.5);
  const tf = (f: number, dl: number) => f / (f + 0.9 * (0.6 + 0.4 * dl / 1.75));
  // Query "storm" alone: a and c match; a is shorter, so it wins.
  const plain = lexicalRerank("storm", [], candidates, { exactLengths: true });
  assert.deepEqual(plain.map((p) => p.docId), ["a", "c", "b", "d"]);
  assert.ok(Math.abs(plain[0].score - idf * tf(1, 1)) < 1e-6);
  assert.ok(Math.abs(plain[1].score - idf * tf(1, 2)) < 1e-6);
  // Ties at 0 keep the first-stage order (b before d).
  assert.deepEqual([plain[2].score, plain[3].score], [0, 0]);
  // Expanded by a sub-question about flooding: c matches both terms and rises to the top.
  const expanded = lexicalRerank("storm", ["How bad was the flood?"], candidates, {
    exactLengths: true,
  });
  const c = idf * tf(1, 2) * 2;
  const b = idf * tf(2, 2);
  const a = idf * tf(1, 1);
  assert.deepEqual(expanded.map((p) => p.docId), ["c", "b", "a", "d"]);
  assert.ok(c > b && b > a);
  assert.ok(Math.abs(expanded[0].score - c) < 1e-6);
  assert.ok(Math.abs(expanded[1].score - b) < 1e-6);
  assert.throws(
    () => lexicalRerank("x", [], [candidates[0], candidates[0]]),
    /candidate "a" appears twice/,
  );
});
