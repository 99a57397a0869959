import assert from "node:assert/strict";
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { cruxSettings } from "./crux_settings.ts";

Deno.test("cruxSettings: defaults from CRUX_DEFAULTS, config values over them", () => {
  const plain = cruxSettings({});
  assert.deepEqual(plain, {
    constructTau: CRUX_DEFAULTS.tau,
    tau: 3,
    w: 0.5,
    thresholds: [3, 5],
    cutoffs: ["oracle", 10, 20],
    taus: [3, 5],
    evaluation: { runs: ["bm25"], cutoffs: [10, "oracle"] },
  });
  const set = cruxSettings({
    construct: { tau: 4 },
    analysis: { tau: 4, w: 1, thresholds: [2, 4], contexts: { cutoffs: [5] } },
    retrieve: [{ name: "dense", kind: "dense" } as never],
  });
  assert.equal(set.constructTau, 4);
  assert.deepEqual(set.taus, [4, 2]);
  assert.equal(set.w, 1);
  assert.deepEqual(set.evaluation, { runs: ["dense"], cutoffs: [5] });
});
