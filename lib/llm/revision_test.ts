import assert from "node:assert/strict";
import { revision } from "./revision.ts";
import { parseLabels } from "./parse_labels.ts";

const LABELS = ["support", "partial_support", "not_support"];

Deno.test("revision finds a line revising what the answer stated", () => {
  assert.equal(revision("Rating: 4\nCorrection: 3"), "Correction: 3");
  assert.equal(revision("[2] > [1]\n**Wait**, [1] is better."), "Wait, [1] is better.");
  assert.equal(revision("yes\nOn second thought: no"), "On second thought: no");
  assert.equal(revision("1. vital\nLet me fix that: 1. okay"), "Let me fix that: 1. okay");
  // A change asked for by value, when values are given.
  assert.equal(
    revision("1. support\n2. support\nThe second should be partial support.", LABELS),
    "The second should be partial support.",
  );
  assert.equal(revision("Change item 2 to not_support.", LABELS), "Change item 2 to not_support.");
  // A change that names no item, or no value, is prose.
  assert.equal(revision("It should be support if the date matched.", LABELS), undefined);
  assert.equal(revision("The second sentence should be shorter.", LABELS), undefined);
  // Not revisions: the answer itself, prose naming no value, an item's own note.
  assert.equal(revision("1. support\n2. not_support"), undefined);
  assert.equal(revision("The answer should be shorter.\n1. support", LABELS), undefined);
  assert.equal(revision("1. support - the date should be 1932", LABELS), undefined);
  assert.equal(revision("The second should be support."), undefined, "no values: openers only");
});

Deno.test("parseLabels leaves a corrected list unparsed rather than half-corrected", () => {
  const text = "1. support\n2. not_support\n3. support\nCorrection: the second should be support";
  const got = parseLabels(text, LABELS, { count: 3 });
  assert.equal(got.ok, false);
  assert.ok(!got.ok && got.raw === text && /revises itself/.test(got.reason));
  // The same list without the correction reads as stated.
  assert.deepEqual(parseLabels(text.split("\nCorrection")[0], LABELS, { count: 3 }), {
    ok: true,
    value: ["support", "not_support", "support"],
  });
});
