import assert from "node:assert/strict";
import { keyPointRates } from "./key_point_rates.ts";

Deno.test("keyPointRates gives the three-way shares", () => {
  assert.deepEqual(keyPointRates(["supported", "omitted", "supported", "contradicted"]), {
    supported: 0.5,
    omitted: 0.25,
    contradicted: 0.25,
  });
  assert.throws(() => keyPointRates(["maybe" as "omitted"]), /label "maybe"/);
  const none = keyPointRates([]);
  assert.ok(Number.isNaN(none.supported) && Number.isNaN(none.contradicted));
});
