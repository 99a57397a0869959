import assert from "node:assert/strict";
import { parseMeasure } from "./parse_measure.ts";
import { formatMeasure } from "./format_measure.ts";
import { builtinRegistry } from "./default_registry.ts";
import type { MeasureDef } from "./measure.ts";

Deno.test("parseMeasure reads names, parameters and cutoffs", () => {
  assert.deepEqual(parseMeasure("nDCG@10"), { name: "nDCG", params: {}, cutoff: 10 });
  assert.deepEqual(parseMeasure("AP"), { name: "AP", params: {} });
  assert.deepEqual(parseMeasure("alpha_nDCG(alpha=0.3)@20"), {
    name: "alpha_nDCG",
    params: { alpha: 0.3 },
    cutoff: 20,
  });
  assert.deepEqual(parseMeasure(" Cov(tau=4, filter_by_oracle=false)@oracle "), {
    name: "Cov",
    params: { tau: 4, filter_by_oracle: false },
    cutoff: "oracle",
  });
  assert.deepEqual(parseMeasure("RPrec(rel=2)"), { name: "RPrec", params: { rel: 2 } });
});

Deno.test("parseMeasure drops parameters equal to their defaults", () => {
  assert.deepEqual(parseMeasure("alpha_nDCG(alpha=0.5)@20"), {
    name: "alpha_nDCG",
    params: {},
    cutoff: 20,
  });
  assert.equal(formatMeasure(parseMeasure("alpha_nDCG(alpha=0.5)@20")), "alpha_nDCG@20");
  assert.equal(formatMeasure(parseMeasure("Den(w=0.5,tau=3)@10")), "Den@10");
});

Deno.test("parseMeasure resolves trec_eval and ir_measures aliases", () => {
  const cases: [string, string][] = [
    ["MAP", "AP"],
    ["map", "AP"],
    ["ndcg_cut_10", "nDCG@10"],
    ["ndcg_cut.10", "nDCG@10"],
    ["ndcg", "nDCG"],
    ["P_10", "P@10"],
    ["P.10", "P@10"],
    ["recall_10", "R@10"],
    ["recall.100", "R@100"],
    ["map_cut_30", "AP@30"],
    ["recip_rank", "RR"],
    ["Rprec", "RPrec"],
    ["alpha-nDCG@5", "alpha_nDCG@5"],
  ];
  for (const [alias, canonical] of cases) {
    assert.equal(formatMeasure(parseMeasure(alias)), canonical, alias);
  }
});

Deno.test("parse and format round-trip", () => {
  for (
    const text of [
      "P@5",
      "R@1000",
      "AP@30",
      "RR",
      "RPrec(rel=2)",
      "nDCG@oracle",
      "alpha_nDCG(alpha=0.3)@oracle",
      "Cov(tau=5)",
      "Cov(filter_by_oracle=false)@10",
      "Den(tau=4,w=1)@oracle",
    ]
  ) {
    const m = parseMeasure(text);
    assert.equal(formatMeasure(m), text);
    assert.deepEqual(parseMeasure(formatMeasure(m)), m);
  }
});

Deno.test("parseMeasure rejects malformed strings with clear messages", () => {
  const bad: [string, RegExp][] = [
    ["", /Cannot parse measure "": expected Name\(param=value,...\)@cutoff/],
    ["P@", /cutoff must be a positive integer or "oracle", got ""/],
    ["P@0", /positive integer/],
    ["P@ten", /got "ten"/],
    ["P", /P needs a cutoff, e.g. "P@10"/],
    ["RPrec@10", /RPrec takes no cutoff/],
    ["RR@oracle", /RR does not accept "@oracle"/],
    ["nDGC@10", /Unknown measure "nDGC@10": no measure is named "nDGC". Did you mean nDCG/],
    ["Cov(tau=x)", /parameter "tau" must be a number, got "x"/],
    ["Cov(filter_by_oracle=maybe)", /must be true or false/],
    ["Cov(beta=1)", /Cov has no parameter "beta" \(parameters: tau, filter_by_oracle\)/],
    ["Cov(tau=3,tau=4)", /given twice/],
    ["nDCG(x=1)@10", /parameters: none/],
    ["recall", /needs a cutoff suffix/],
    ["ndcg_cut_10@5", /cutoff is given twice/],
    ["P@10)", /got "10\)"/],
    ["P(rel=1@10", /expected Name/],
  ];
  for (const [text, pattern] of bad) assert.throws(() => parseMeasure(text), pattern, text);
});

Deno.test("the registry refuses duplicate names and aliases", () => {
  const registry = builtinRegistry();
  const copy: MeasureDef = { ...registry.get("P")! };
  assert.throws(
    () => registry.register(copy),
    /Cannot register measure "P": the name is already registered/,
  );
  assert.throws(() => registry.alias("MAP", "P"), /Cannot add alias "MAP" for "P"/);
  assert.throws(() => registry.alias("x", "Nope"), /no measure is named "Nope"/);
  registry.register({ ...copy, name: "Prec" });
  assert.deepEqual(parseMeasure("Prec@3", { registry }), { name: "Prec", params: {}, cutoff: 3 });
  assert.throws(() => parseMeasure("Prec@3"), /Unknown measure/);
});

Deno.test("formatMeasure rejects parameters the measure does not have", () => {
  assert.throws(
    () => formatMeasure({ name: "P", params: { alpha: 1 }, cutoff: 5 }),
    /Cannot format measure P: it has no parameter "alpha"/,
  );
});
