import assert from "node:assert/strict";
import { countTokens } from "@lib/text/mod.ts";
import { extractiveGenerator } from "./extractive_generator.ts";

const contexts = [
  "Storms hit the coast. Roads were closed.",
  "Power returned on Monday. Schools reopened.",
];

Deno.test("extractiveGenerator takes sentences in rank order up to the token budget", async () => {
  const gen = extractiveGenerator();
  const all = await gen.generate({ request: "r", contexts, maxTokens: 1000 });
  assert.equal(
    all.text,
    "Storms hit the coast. Roads were closed. Power returned on Monday. Schools reopened.",
  );
  assert.deepEqual([all.status, all.backend, all.tokens], [
    "ok",
    "extractive",
    countTokens(all.text),
  ]);
  const budget = countTokens("Storms hit the coast. Roads were closed.");
  const cut = await gen.generate({ request: "r", contexts, maxTokens: budget });
  assert.equal(cut.text, "Storms hit the coast. Roads were closed.");
  assert.equal(cut.tokens, budget);
  const none = await gen.generate({ request: "r", contexts, maxTokens: 2 });
  assert.deepEqual([none.text, none.tokens], ["", 0]);
  assert.equal((await gen.generate({ request: "r", contexts: [], maxTokens: 50 })).text, "");
});
