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

Deno.test("parseMeasure keeps explicit parameters equal to their defaults; formatMeasure omits them", () => {
  assert.deepEqual(parseMeasure("alpha_nDCG(alpha=0.5)@20"), {
    name: "alpha_nDCG",
    params: { alpha: 0.5 },
    cutoff: 20,
  });
  assert.deepEqual(parseMeasure("Cov(filter_by_oracle=true,tau=3)@10"), {
    name: "Cov",
    params: { tau: 3, filter_by_oracle: true },
    cutoff: 10,
  });
  assert.deepEqual(parseMeasure("RPrec(rel=1)"), { name: "RPrec", params: { rel: 1 } });
  assert.equal(formatMeasure(parseMeasure("alpha_nDCG(alpha=0.5)@20")), "alpha_nDCG@20");
  assert.equal(formatMeasure(parseMeasure("Den(w=0.5,tau=3)@10")), "Den@10");
  assert.equal(formatMeasure(parseMeasure("RPrec(rel=1)")), "RPrec");
});

Deno.test("formatMeasure with command-wide defaults prints the effective parameters", () => {
  const cases: [string, Record<string, number | undefined>, string][] = [
    // A default equal to the declared one changes nothing.
    ["Cov@10", { tau: 3 }, "Cov@10"],
    ["Cov(tau=3)@10", { tau: 3 }, "Cov@10"],
    ["Cov@10", { tau: undefined, rel: undefined }, "Cov@10"],
    // A default that differs shows on every measure with the parameter.
    ["Cov@10", { tau: 4 }, "Cov(tau=4)@10"],
    ["Cov(tau=4)@10", { tau: 4 }, "Cov(tau=4)@10"],
    ["Cov(tau=3)@10", { tau: 4 }, "Cov(tau=3)@10"],
    ["Cov(tau=5)@10", { tau: 4 }, "Cov(tau=5)@10"],
    ["Den(w=1)@oracle", { tau: 4 }, "Den(tau=4,w=1)@oracle"],
    ["P@10", { rel: 2, tau: 4 }, "P(rel=2)@10"],
    ["RPrec(rel=1)", { rel: 2 }, "RPrec(rel=1)"],
    ["nDCG@10", { rel: 2 }, "nDCG@10"],
  ];
  for (const [text, defaults, expected] of cases) {
    const key = formatMeasure(parseMeasure(text), { defaults });
    assert.equal(key, expected, `${text} with ${JSON.stringify(defaults)}`);
    // The key names the same measure, parsed with or without the defaults.
    assert.equal(formatMeasure(parseMeasure(key), { defaults }), key);
  }
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
  // Explicit defaults print the short form, which parses to an equivalent measure.
  for (const [text, short] of [["Cov(tau=3)@10", "Cov@10"], ["P(rel=1)@5", "P@5"]]) {
    assert.equal(formatMeasure(parseMeasure(text)), short);
    assert.deepEqual(parseMeasure(formatMeasure(parseMeasure(text))), parseMeasure(short));
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

Deno.test("measure parameters outside their declared range are errors naming the range", () => {
  const cases: [string, RegExp][] = [
    ["alpha_nDCG(alpha=1.5)@10", /parameter "alpha" must be from 0 to 1, got 1\.5/],
    ["alpha_nDCG(alpha=-0.1)@10", /parameter "alpha" must be from 0 to 1, got -0\.1/],
    ["Cov(tau=99)@10", /parameter "tau" must be from 0 to 5, got 99/],
    ["Cov(tau=2.5)@10", /parameter "tau" must be a whole number, got 2\.5/],
    ["Den(w=-1)@10", /parameter "w" must be >= 0, got -1/],
    ["Den(w=1e400)@10", /parameter "w" must be a finite number/],
  ];
  for (const [text, message] of cases) assert.throws(() => parseMeasure(text), message, text);
  // The ends of each range are allowed.
  for (
    const ok of [
      "alpha_nDCG(alpha=0)@5",
      "alpha_nDCG(alpha=1)@5",
      "Cov(tau=0)@5",
      "Cov(tau=5)@5",
      "Den(w=0)@5",
    ]
  ) {
    assert.equal(parseMeasure(ok).name.length > 0, true, ok);
  }
});
