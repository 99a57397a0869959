import assert from "node:assert/strict";
import { valueTopicSet } from "./value_topic_set.ts";
import { parseTopicSet } from "./topic_set.ts";

Deno.test("a stored value's topic set follows the rule its measure averages by", () => {
  // Cov and Den: the topics with an answerable sub-question at the value's tau; a tau the
  // measure writes wins over the source's.
  assert.equal(
    valueTopicSet({ measure: "Den@oracle", topicId: "all", topics: 49, tau: 5 }),
    "answerable(tau=5,n=49)",
  );
  assert.equal(
    valueTopicSet({ measure: "Cov(tau=4)@10", topicId: "all", topics: 7, tau: 3 }),
    "answerable(tau=4,n=7)",
  );
  // Relevance measures: the judged topics.
  assert.equal(
    valueTopicSet({ measure: "alpha_nDCG@10", topicId: "all", topics: 50, tau: 3 }),
    "judged(n=50)",
  );
  // Measures outside the registry: every topic they have.
  assert.equal(valueTopicSet({ measure: "KPR", topicId: "all", topics: 3, tau: 3 }), "all(n=3)");
  // A per-topic value is over its topic; a mean without a count states none.
  assert.deepEqual(
    parseTopicSet(valueTopicSet({ measure: "Cov", topicId: "a b", topics: null, tau: 3 })!),
    { kind: "topic", id: "a b" },
  );
  assert.equal(valueTopicSet({ measure: "Cov", topicId: "all", topics: null, tau: 3 }), null);
});
