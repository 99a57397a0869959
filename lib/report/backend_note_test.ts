import assert from "node:assert/strict";
import { backendNote } from "./backend_note.ts";

Deno.test("backendNote labels all-offline backends", () => {
  assert.equal(
    backendNote({ generator: "extractive", judge: "lexical" }),
    "offline backends: lexical judge, extractive generator",
  );
});

Deno.test("backendNote marks offline backends among online ones", () => {
  assert.equal(
    backendNote({ judge: "llama-3.1-70b", generator: "extractive", embedder: "tfidf" }),
    "backends: llama-3.1-70b judge, tfidf embedder (offline), extractive generator (offline)",
  );
  assert.equal(
    backendNote({ judge: "my-rule" }, { offline: ["my-rule"] }),
    "offline backends: my-rule judge",
  );
});

Deno.test("backendNote rejects an empty description", () => {
  assert.throws(() => backendNote({}), { name: "RangeError", message: /none named in \{\}/ });
});
