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

Deno.test("offlineDecompose: one ranked noun phrase per sub-question, templates in turn, at most n", () => {
  const passages = [
    "The Tolliver Street Bridge fell into the Ashby River.",
    "Divers searched the Ashby River.",
    "Mayor Lena Ortiz spoke.",
  ];
  const qs = offlineDecompose("Why did the Tolliver Street Bridge collapse?", passages, { n: 4 });
  // Scores: "Tolliver Street Bridge collapse" 3 x 4 (question) = 12; "Ashby River" 2 x 2 = 4;
  // "Mayor Lena Ortiz spoke" 4; "Divers searched" 2; "Tolliver Street Bridge fell" overlaps the first.
  assert.deepEqual(qs, [
    "What happened with Tolliver Street Bridge collapse?",
    "What is the history of Mayor Lena Ortiz spoke?",
    "Who was involved in Ashby River?",
    "What will happen next with Divers searched?",
  ]);
  // Without n: every phrase not overlapping a better one, "fell" (1) included.
  assert.equal(
    offlineDecompose("Why did the Tolliver Street Bridge collapse?", passages).length,
    5,
  );
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
