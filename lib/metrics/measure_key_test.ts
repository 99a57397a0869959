import assert from "node:assert/strict";
import fc from "fast-check";
import {
  answerMeasureName,
  formatMeasureKey,
  type MeasureKey,
  parseMeasureKey,
} from "./measure_key.ts";
import { defaultRegistry } from "./default_registry.ts";
import { parseMeasure } from "./parse_measure.ts";
import type { Measure, ParamValue } from "./measure.ts";
import type { TopicSet } from "./topic_set.ts";

Deno.test("a stored measure name carries every parameter that differs from the declared default", () => {
  const base = {
    method: "crux",
    source: "report",
    judge: "j",
    topics: { kind: "answerable", tau: 3, n: 2 } as const,
  };
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
    topicSet: "answerable(tau=3,n=2)",
    key: "crux|Den(tau=5,w=1)@10|report|j|answerable(tau=3,n=2)",
  });
  // A measure outside the registry is written as its name.
  assert.equal(
    formatMeasureKey({ ...base, method: "keypoints", measure: { name: "KPR", params: {} } })
      .measure,
    "KPR",
  );
});

Deno.test("parsing a stored key writes every parameter out, so two spellings of one value meet", () => {
  const row = { method: "crux", source: "selection", judge: "j", topicSet: "judged(n=3)" };
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
  assert.deepEqual(parseMeasureKey(formatMeasureKey(key).key), key);
  assert.deepEqual(a.topics, { kind: "judged", n: 3 });
  assert.deepEqual(
    parseMeasureKey({ ...row, method: "nuggets", measure: "strict_vital" }).measure,
    {
      name: "strict_vital",
      params: {},
    },
  );
});

Deno.test("answer-level names follow the one rule: declared defaults (tau 3, w 0.5) are omitted", () => {
  assert.equal(answerMeasureName("Cov", 3, 0.5), "Cov");
  assert.equal(answerMeasureName("Cov", 2, 0.5), "Cov(tau=2)");
  assert.equal(answerMeasureName("Den", 3, 0.5), "Den");
  assert.equal(answerMeasureName("Den", 5, 0.5), "Den(tau=5)");
  assert.equal(answerMeasureName("Den", 3, 1), "Den(w=1)");
  // The same spelling as Den of a ranking computed with the same parameters.
  assert.equal(
    answerMeasureName("Den", 4, 1),
    formatMeasureKey({
      method: "crux",
      source: "ranking(tau=4)",
      judge: "j",
      measure: { name: "Den", params: { tau: 4, w: 1, filter_by_oracle: true } },
      topics: { kind: "answerable", tau: 4, n: 3 },
    }).measure,
  );
});

/** Any number a parameter may take (no -0: it is written "0"). */
const paramValue = (spec: { default: ParamValue; min?: number; max?: number; integer?: boolean }) =>
  typeof spec.default === "boolean"
    ? fc.boolean()
    : spec.integer
    ? fc.integer({ min: spec.min ?? -1000, max: spec.max ?? 1000 })
    : fc.double({ min: spec.min ?? -1e6, max: spec.max ?? 1e6, noNaN: true })
      .map((x) => (x === 0 ? 0 : x));

/** A registered measure with every declared parameter written out. */
const registered: fc.Arbitrary<Measure> = fc.constantFrom(...defaultRegistry().names()).chain(
  (name) => {
    const def = defaultRegistry().require(name);
    const params = fc.record(
      Object.fromEntries(Object.entries(def.params).map(([k, spec]) => [k, paramValue(spec)])),
      { noNullPrototype: true },
    ) as fc.Arbitrary<Record<string, ParamValue>>;
    const depths = def.oracleCutoff
      ? fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constant("oracle" as const))
      : fc.integer({ min: 1, max: 1000 });
    const cutoff = def.cutoff === "none"
      ? fc.constant(undefined)
      : def.cutoff === "required"
      ? depths
      : fc.option(depths, { nil: undefined });
    return fc.tuple(params, cutoff).map(([p, c]): Measure =>
      c === undefined ? { name, params: p } : { name, params: p, cutoff: c }
    );
  },
);

/** A measure name the registry does not know (`KPR`, `strict_vital`), with no parameters. */
const unregistered: fc.Arbitrary<Measure> = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_%|]{0,12}$/)
  .filter((name) => {
    try {
      parseMeasure(name);
      return false;
    } catch {
      return true;
    }
  }).map((name) => ({ name, params: {} }));

const topicSet: fc.Arbitrary<TopicSet> = fc.oneof(
  fc.string({ minLength: 1, unit: "grapheme" }).map((id) => ({ kind: "topic" as const, id })),
  fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.nat()).map(([tau, n]) => ({
    kind: "answerable" as const,
    tau: tau === 0 ? 0 : tau,
    n,
  })),
  fc.nat().map((n) => ({ kind: "judged" as const, n })),
  fc.nat().map((n) => ({ kind: "all" as const, n })),
  fc.nat().map((n) => ({ kind: "scored" as const, n })),
);

const measureKey: fc.Arbitrary<MeasureKey> = fc.record({
  method: fc.string(),
  measure: fc.oneof(registered, unregistered),
  source: fc.string(),
  judge: fc.string(),
  topics: topicSet,
}, { noNullPrototype: true });

Deno.test("property: a key written and read back is the same key, and a written key reads back to the same string", () => {
  fc.assert(
    fc.property(measureKey, (k) => {
      const s = formatMeasureKey(k).key;
      assert.deepEqual(parseMeasureKey(s), k);
      assert.equal(formatMeasureKey(parseMeasureKey(s)).key, s);
    }),
    { numRuns: 500 },
  );
});

Deno.test("the key string: fields escaped, topic sets written out, malformed strings refused", () => {
  const k = formatMeasureKey({
    method: "crux",
    measure: { name: "Den", params: { tau: 3, w: 0.5, filter_by_oracle: true }, cutoff: "oracle" },
    source: "contexts(tau=3)",
    judge: "a|b%",
    topics: { kind: "topic", id: "t 1,(x)" },
  });
  assert.equal(k.key, "crux|Den@oracle|contexts(tau=3)|a%7Cb%25|topic(id=t%201%2C%28x%29)");
  assert.equal(parseMeasureKey(k.key).judge, "a|b%");
  for (
    const canonical of [
      "trec|P(rel=2)@10|selection|human|judged(n=50)",
      "crux|Den(w=1)|report|lexical|answerable(tau=4,n=49)",
      "keypoints|KPR|report||all(n=3)",
      "compare|kendall_tau_b||lexical~lexical|scored(n=10)",
      "crux|Cov@oracle|contexts(tau=3)|human|topic(id=duc04-test-9)",
    ]
  ) assert.equal(formatMeasureKey(parseMeasureKey(canonical)).key, canonical);
  assert.deepEqual(parseMeasureKey(k.key).topics, { kind: "topic", id: "t 1,(x)" });
  assert.deepEqual(parseMeasureKey("compare|spearman||a~b|scored(n=7)").topics, {
    kind: "scored",
    n: 7,
  });
  assert.throws(
    () => parseMeasureKey("crux|Cov|report|j"),
    /expected method\|measure\|source\|judge\|topics, got 4 field/,
  );
  assert.throws(() => parseMeasureKey("crux|Cov|report|j%|all(n=3)"), /%25/);
  assert.throws(
    () => parseMeasureKey("crux|Cov|report|j|some(n=3)"),
    /expected one of topic, answerable, judged, all, scored/,
  );
  assert.throws(
    () => parseMeasureKey("crux|Cov|report|j|judged(n=-1)"),
    /n must be a whole number >= 0/,
  );
  assert.throws(
    () => parseMeasureKey("crux|Cov|report|j|answerable(n=3,tau=3)"),
    /tau=,n= in that order/,
  );
  assert.throws(
    () => parseMeasureKey("crux|Cov|report|j|topic(id=a b)"),
    /not written canonically/,
  );
});
