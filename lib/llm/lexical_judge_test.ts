import assert from "node:assert/strict";
import { lexicalJudge } from "./lexical_judge.ts";

const Q = "Who won the chess final in Oslo?";

Deno.test("lexicalJudge: IDF-weighted overlap mapped by the documented thresholds (hand-checked)", async () => {
  // Terms who, won, chess, final, oslo; df over the 3 contexts 0, 1, 2, 2, 1; idf = ln(1 + (3 - df + .5)/(df + .5)):
  // 2.0794, 0.9808, 0.4700, 0.4700, 0.9808 (total 4.9810).
  const results = await lexicalJudge().rate([
    { id: "a", question: Q, context: "Anna won the chess final in Oslo on Sunday." }, // 2.9016 / 4.9810
    { id: "b", question: Q, context: "Rain is expected across the region tomorrow." },
    { id: "c", question: Q, context: "The chess final drew a large crowd." }, // 0.9400 / 4.9810
  ]);
  assert.deepEqual(results, [
    { id: "a", rating: 3, status: "ok", raw: "0.5825", judge: "lexical" },
    { id: "b", rating: 0, status: "ok", raw: "0.0000", judge: "lexical" },
    { id: "c", rating: 1, status: "ok", raw: "0.1887", judge: "lexical" },
  ]);
});

Deno.test("lexicalJudge: a fixed corpus sets IDF; full overlap is 5; empty questions are 0", async () => {
  const judge = lexicalJudge({ corpus: ["chess club news", "weather news"] });
  const [full, none] = await judge.rate([
    { id: "f", question: "Chess news?", context: "News about chess." },
    { id: "e", question: "the of and", context: "anything" },
  ]);
  assert.deepEqual([full.rating, full.raw], [5, "1.0000"]);
  assert.deepEqual([none.rating, none.raw], [0, "0.0000"]);
  assert.throws(() => lexicalJudge({ thresholds: [0.1, 0.2, 0.3, 0.4, 0.5] }), RangeError);
});
