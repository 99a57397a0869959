import assert from "node:assert/strict";
import { heuristicType } from "./heuristic_type.ts";
import { offlineDecompose } from "./offline_decompose.ts";
import { lexicalCoverage } from "./lexical_coverage.ts";

Deno.test("heuristicType: follow-up and background cues, else core by shared content terms", () => {
  const q = "Why did the Tolliver Street Bridge collapse?";
  assert.equal(heuristicType(q, "What will replace the bridge next year?"), "follow-up");
  assert.equal(heuristicType(q, "What is the history of the bridge?"), "background");
  assert.equal(heuristicType(q, "What caused the bridge collapse?"), "core"); // caus? no; bridg, collaps: 2 of 3
  assert.equal(heuristicType(q, "Who owns the river ferries?"), "background"); // 0 of 2 shared
});

Deno.test("offlineDecompose: templates over ranked noun phrases, n at most, distinct", () => {
  const qs = offlineDecompose("Why did the Tolliver Street Bridge collapse?", [
    "The Tolliver Street Bridge fell into the Ashby River.",
    "Divers searched the Ashby River.",
  ], { n: 6 });
  assert.equal(qs.length, 6);
  assert.equal(new Set(qs).size, 6);
  assert.deepEqual(qs.slice(0, 2), [
    "What happened with Tolliver Street Bridge collapse?",
    "What happened with Ashby River?",
  ]);
  assert.deepEqual(qs.slice(2, 4), [
    "What is the history of Tolliver Street Bridge collapse?",
    "What is the history of Ashby River?",
  ]);
  assert.equal(qs[4], "What will happen next with Tolliver Street Bridge collapse?");
  assert.deepEqual(offlineDecompose("", [], { n: 5 }), []);
});

Deno.test("lexicalCoverage: best sentence by share of content terms; threshold decides", () => {
  const text = "Rain fell all week. The bridge collapsed on Tuesday. Nobody was hurt.";
  assert.deepEqual(lexicalCoverage("When did the bridge collapse?", text), {
    answered: true,
    span: "The bridge collapsed on Tuesday.",
    overlap: 1,
  });
  // "Who repaired the bridge?": repair absent, bridge present -> 1/2.
  assert.equal(lexicalCoverage("Who repaired the bridge?", text).overlap, 0.5);
  assert.equal(
    lexicalCoverage("Who repaired the bridge?", text, { threshold: 0.6 }).answered,
    false,
  );
  assert.deepEqual(lexicalCoverage("Which ferry sank?", text), {
    answered: false,
    span: null,
    overlap: 0,
  });
});
