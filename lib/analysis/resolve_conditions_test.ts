import assert from "node:assert/strict";
import type { RunRow } from "@lib/types/mod.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import { tinyData } from "./testdata/tiny_data.ts";

Deno.test("resolveConditions: pipelines by name, then the references in fixed order", () => {
  const cs = resolveConditions(tinyData());
  assert.deepEqual(cs.map((c) => [c.name, c.kind]), [
    ["a", "pipeline"],
    ["b", "pipeline"],
    ["c", "pipeline"],
    ["direct", "direct"],
    ["oracle-context", "oracle-context"],
    ["oracle-result", "oracle-result"],
  ]);
  assert.equal(cs[4].label, "Oracle context P*");
  // bm25's top 2 equals a's context on t2 and b's on t1; nothing matches c.
  assert.deepEqual(cs.slice(0, 3).map((c) => c.run), ["bm25", "bm25", undefined]);
});

Deno.test("resolveConditions: the chain's rag-R naming maps to run R; explicit pipelines win", () => {
  const data = tinyData();
  const rows: RunRow[] = [{ run: "dense", topicId: "t1", docId: "t1:0#0", rank: 1, score: 1 }];
  const renamed = {
    ...data,
    runs: new Map([...data.runs, ["dense", rows]]),
    generations: data.generations.map((g) => (g.run === "a" ? { ...g, run: "rag-dense" } : g)),
  };
  const cs = resolveConditions(renamed, { references: false });
  assert.deepEqual(cs.map((c) => [c.name, c.label, c.run]), [
    ["b", "b", "bm25"],
    ["c", "c", undefined],
    ["rag-dense", "dense", "dense"],
  ]);
  const explicit = resolveConditions(renamed, {
    pipelines: [{ generation: "c", run: "bm25", label: "C" }],
  });
  assert.deepEqual(explicit.map((c) => c.label), [
    "C",
    "Direct (no context)",
    "Oracle context P*",
    "Oracle result",
  ]);
  assert.throws(
    () => resolveConditions(renamed, { pipelines: [{ generation: "zzz" }] }),
    /Cannot compare pipeline "zzz": the workspace has no reports of that run/,
  );
  assert.throws(
    () => resolveConditions(renamed, { pipelines: [{ generation: "b", run: "nope" }] }),
    /retrieval run "nope" is not in the workspace \(known runs: bm25, dense\)/,
  );
});
