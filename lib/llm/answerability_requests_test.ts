import assert from "node:assert/strict";
import { answerabilityRequests } from "./answerability_requests.ts";

Deno.test("answerabilityRequests renders the answerability template per pair", async () => {
  const [r] = await answerabilityRequests([{
    id: "p1",
    question: "Who won?",
    context: "Ann won.",
  }]);
  assert.equal(r.id, "p1");
  assert.equal(r.template, "answerability@2");
  assert.deepEqual(r.params, { temperature: 0, topP: 1, maxTokens: 5 });
  assert.equal(r.messages.length, 1);
  assert.match(r.messages[0].content, /Question: Who won\?\n\nContext:\nAnn won\.\n/);
});
