/**
 * The README stays the user's door: at most 400 lines, with the two commands and links into
 * docs/ for the rest.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const README = fileURLToPath(new URL("../../README.md", import.meta.url));

Deno.test("the README has at most 400 lines, the two commands and the tutorial links", async () => {
  const text = await Deno.readTextFile(README);
  const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
  assert.ok(lines <= 400, `README.md has ${lines} lines; move reference material into docs/`);
  assert.match(text, /npx -y deno task demo/);
  assert.match(text, /npx -y deno task test/);
  for (const page of ["reproduce_crux_duc", "evaluate_your_rag", "human_study", "reranker_grid"]) {
    assert.match(text, new RegExp(`\\(docs/${page}\\.md\\)`), page);
  }
});
