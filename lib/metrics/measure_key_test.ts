import assert from "node:assert/strict";
import { answerMeasureName, formatMeasureKey, parseMeasureKey } from "./measure_key.ts";

Deno.test("a stored measure name carries every parameter that differs from the declared default", () => {
  const base = { method: "crux", source: "report", judge: "j" };
  // Declared defaults: tau 3, w 0.5. The configuration's tau never decides the spelling.
  assert.equal(
    formatMeasureKey({ ...base, measure: { name: "Cov", params: { tau: 3 } } }).measure,
    "Cov",
  );
  assert.equal(
    formatMeasureKey({ ...base, measure: { name: "Cov", params: { tau: 4 } } }).measure,
    "Cov(tau=4)",
  );
  const den = formatMeasureKey({
    ...base,
    measure: { name: "Den", params: { tau: 5, w: 1 }, cutoff: 10 },
  });
  assert.deepEqual(den, {
    measure: "Den(tau=5,w=1)@10",
    name: "Den",
    cutoff: "10",
    method: "crux",
    source: "report",
    judge: "j",
  });
  // A measure outside the registry is written as its name.
  assert.equal(
    formatMeasureKey({ ...base, method: "keypoints", measure: { name: "KPR", params: {} } })
      .measure,
    "KPR",
  );
});

Deno.test("parsing a stored key writes every parameter out, so two spellings of one value meet", () => {
  const row = { method: "crux", source: "selection", judge: "j" };
  const a = parseMeasureKey({ ...row, measure: "Cov@10" });
  const b = parseMeasureKey({ ...row, measure: "Cov(tau=3)@10" });
  assert.deepEqual(a, b);
  assert.deepEqual(a.measure, {
    name: "Cov",
    params: { tau: 3, filter_by_oracle: true },
    cutoff: 10,
  });
  assert.notDeepEqual(parseMeasureKey({ ...row, measure: "Cov(tau=4)@10" }), a);
  // Format then parse gives the key back.
  const key = parseMeasureKey({ ...row, measure: "alpha_nDCG(alpha=0.3)@20" });
  assert.deepEqual(parseMeasureKey({ ...row, ...formatMeasureKey(key) }), key);
  assert.deepEqual(
    parseMeasureKey({ ...row, method: "nuggets", measure: "strict_vital" }).measure,
    {
      name: "strict_vital",
      params: {},
    },
  );
});

Deno.test("answer-level names: Cov by the canonical rule, Den with w always", () => {
  assert.equal(answerMeasureName("Cov", 3, 0.5), "Cov");
  assert.equal(answerMeasureName("Cov", 2, 0.5), "Cov(tau=2)");
  assert.equal(answerMeasureName("Den", 3, 0.5), "Den(w=0.5)");
  assert.equal(answerMeasureName("Den", 5, 0.5), "Den(tau=5,w=0.5)");
});
