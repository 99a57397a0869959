import assert from "node:assert/strict";
import { experimentDir, repoRoot, sampleDir } from "./paths.ts";

Deno.test("experimentDir places experiments under outputs/ and rejects path tricks", () => {
  assert.equal(experimentDir("demo", { root: "/r" }), "/r/outputs/demo");
  assert.equal(experimentDir("a.b-c_1", { root: "/r" }), "/r/outputs/a.b-c_1");
  for (const bad of ["", "..", "a/b", "a\\b", " x"]) {
    assert.throws(() => experimentDir(bad, { root: "/r" }), RangeError);
  }
});

Deno.test("repoRoot holds deno.json and the sample", async () => {
  assert.ok((await Deno.stat(`${repoRoot()}/deno.json`)).isFile);
  assert.ok((await Deno.stat(`${sampleDir()}/corpus.jsonl`)).isFile);
});
