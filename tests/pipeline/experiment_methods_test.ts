/**
 * An experiment compares the methods its config names: CRUX and each method
 * with a section. The comparison's stage lists those methods only, and its
 * section may not name a method the config leaves out.
 */
import assert from "node:assert/strict";
import { parseExperimentConfig } from "../../lib/experiment/mod.ts";
import { METHOD_REGISTRY } from "../../lib/methods/mod.ts";
import { experimentHeadlines, experimentStages } from "../../lib/pipeline/mod.ts";

const parse = (fields: Record<string, unknown>) =>
  parseExperimentConfig(JSON.stringify({ name: "x", backend: "offline", ...fields }), {
    file: "exp.json",
  });

Deno.test("the comparison covers CRUX and the methods with a section, whatever else the registry holds", async () => {
  const config = parse({ keypoints: {}, compare: {} });
  assert.deepEqual(
    experimentHeadlines(METHOD_REGISTRY, config.methods).map((h) => h.method),
    ["crux", "keypoints"],
  );
  const specs = await experimentStages(config, { methods: METHOD_REGISTRY });
  const compare = specs.find((s) => s.id === "measure:compare")!;
  assert.deepEqual((compare.params as { methods: string[] }).methods, ["crux", "keypoints"]);
  // It waits for the key point measures, and for no stage of a method the config leaves out.
  const measures = specs.filter((s) => s.stage === "measure" && s.id !== "measure:compare")
    .map((s) => s.id).filter((id) => id.includes(":keypoints") || id.endsWith("keypoints"));
  assert.ok(measures.length > 0);
  for (const id of measures) assert.ok(compare.deps.includes(id), id);
  const left = METHOD_REGISTRY.filter((m) => m.section && !(m.key in config.methods!));
  assert.ok(left.length > 0);
  assert.ok(!specs.some((s) => left.some((m) => s.id.includes(m.key))));
});

Deno.test("the comparison's section names only methods the config has", () => {
  assert.throws(
    () => parse({ keypoints: {}, compare: { methods: ["crux", "nuggets"] } }),
    new TypeError("exp.json: compare.methods: expected a list of crux, keypoints"),
  );
  assert.deepEqual(
    parse({ nuggets: {}, keypoints: {}, compare: { methods: ["crux", "nuggets"] } }).methods
      ?.compare,
    { methods: ["crux", "nuggets"] },
  );
});
