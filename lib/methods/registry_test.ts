import assert from "node:assert/strict";
import { LlmClient } from "@lib/llm/mod.ts";
import {
  KEYPOINTS,
  METHOD_HEADLINES,
  METHOD_REGISTRY,
  methodByKey,
  type MethodDeclaration,
  methodStages,
  NUGGETS,
  parseMethodSection,
  SUBQ,
} from "./mod.ts";

Deno.test("the registry: CRUX first, the comparison last, one entry per key, headlines that declare range and direction", () => {
  const keys = METHOD_REGISTRY.map((m) => m.key);
  assert.equal(keys[0], "crux");
  assert.equal(keys.at(-1), "compare");
  assert.equal(new Set(keys).size, keys.length);
  assert.equal(methodByKey("subq"), SUBQ);
  for (const m of METHOD_REGISTRY) {
    assert.equal(methodByKey(m.key), m);
    for (const h of m.headlines) {
      assert.equal(h.method, m.key, `${m.key}: a headline of its own method`);
      const [lo, hi] = h.range;
      assert.ok(lo === null || hi === null || lo < hi, `${m.key}: range [${lo}, ${hi}]`);
      assert.equal(typeof h.higherIsBetter, "boolean");
    }
  }
  // The comparison has no headline; every other method has one.
  assert.deepEqual(
    METHOD_HEADLINES.map((h) => h.method),
    keys.filter((k) => k !== "compare"),
  );
  assert.deepEqual(KEYPOINTS.headlines, [
    { method: "keypoints", measure: "KPR", label: "KPR", range: [0, 1], higherIsBetter: true },
  ]);
  assert.throws(
    () => methodByKey("bleu"),
    new RangeError(`Unknown method "bleu"; methods: ${keys.join(", ")}`),
  );
  assert.throws(
    () => parseMethodSection("crux", {}, "x.json"),
    /Method "crux" has no config section/,
  );
});

/** A synthetic method with a section: its stage stores nothing; its headline is open above. */
const EXTRA: MethodDeclaration<Record<string, never>, Record<string, never>> = {
  key: "extra",
  label: "Extra",
  headlines: [{
    method: "extra",
    measure: "n",
    label: "N",
    range: [0, null],
    higherIsBetter: false,
  }],
  roles: [],
  backends: () => ({}),
  section: {
    key: "extra",
    parse: () => ({}),
    stages: (_s, ctx) => [{
      id: "measure:extra",
      stage: "measure",
      version: 1,
      params: { runs: ctx.answerRuns },
      deps: [],
      run: () => Promise.resolve("nothing"),
    }],
  },
  tables: [],
  commands: [],
};
const WITH_EXTRA = [...METHOD_REGISTRY.slice(0, -1), EXTRA, METHOD_REGISTRY.at(-1)!];

Deno.test("lookups, section parsing and stages take a registry of their own", async () => {
  assert.equal(methodByKey("extra", WITH_EXTRA), EXTRA);
  assert.throws(() => methodByKey("extra"), /Unknown method "extra"/);
  const section = parseMethodSection("extra", {}, "x.json", WITH_EXTRA);
  const specs = await methodStages("extra", section, { ...CTX }, WITH_EXTRA);
  assert.deepEqual(specs.map((s) => s.id), ["measure:extra"]);
  // The comparison's section may name it only with that registry.
  assert.deepEqual(
    parseMethodSection("compare", { methods: ["crux", "extra"] }, "x.json", WITH_EXTRA),
    { methods: ["crux", "extra"] },
  );
  assert.throws(
    () => parseMethodSection("compare", { methods: ["crux", "extra"] }, "x.json"),
    /x\.json: compare\.methods: expected a list of /,
  );
  const compare = await methodStages("compare", {}, { ...CTX }, WITH_EXTRA);
  assert.deepEqual(
    (compare[0].params as { methods: string[] }).methods,
    WITH_EXTRA.flatMap((m) => m.headlines).map((h) => h.method),
  );
});

Deno.test("the comparison's section is checked against the registry's methods", () => {
  const known = METHOD_HEADLINES.map((h) => h.method).join(", ");
  assert.deepEqual(parseMethodSection("compare", { methods: ["crux", "subq"] }, "x.json"), {
    methods: ["crux", "subq"],
  });
  assert.throws(
    () => parseMethodSection("compare", { methods: ["crux", "bleu"] }, "x.json"),
    new TypeError(`x.json: compare.methods: expected a list of ${known}`),
  );
  assert.throws(
    () => parseMethodSection("compare", { judges: { compare: "m" } }, "x.json"),
    new TypeError(`x.json: compare.judges.compare: expected a name for one of ${known}`),
  );
});

Deno.test("one backends factory: offline without clients, the model's backends with a judge client", () => {
  const offline = NUGGETS.backends({ section: {} });
  assert.equal(offline.name, "offline");
  assert.equal(offline.judge, "lexical-nuggets");
  const client = new LlmClient({ baseUrl: "http://127.0.0.1:9", model: "judge-m" });
  const online = NUGGETS.backends({ section: { reasks: 1 }, judge: { client } });
  assert.equal(online.name, "judge-m");
  const kp = KEYPOINTS.backends({ section: { mergeThreshold: 0.5, precision: false } });
  assert.equal(kp.extractor.name, "offline-salient");
  assert.equal(kp.merger.name, "offline-lexical(0.5)");
  assert.equal(kp.entailer.name, "offline-lexical");
  assert.equal(kp.supporter, undefined);
  const kpOnline = KEYPOINTS.backends({ section: {}, judge: { client } });
  assert.ok(kpOnline.supporter, "precision defaults to on: a support judge");
  const generator = { client, templatesDir: "t" };
  assert.deepEqual(
    SUBQ.backends({ section: {}, judge: { client, templatesDir: "j" }, generator }),
    {
      client,
      templatesDir: "j",
      generator,
    },
  );
});

/** A stage context without headlines: methodStages supplies the registry's. */
const CTX = {
  backend: "offline" as const,
  answerRuns: ["rag-bm25", "direct"],
  answerStages: ["generate:rag-bm25", "generate:direct"],
  dataStages: ["dataset"],
  judgeStages: ["judge:rag-bm25", "judge:direct"],
  outDir: "outputs/x",
  configFile: "x.json",
};

Deno.test("methodStages declares a method's stages with the registry's headlines", async () => {
  const specs = await methodStages("compare", parseMethodSection("compare", {}, "x.json"), CTX);
  assert.deepEqual(specs.map((s) => s.id), ["measure:compare"]);
  assert.deepEqual(
    (specs[0].params as { methods: string[] }).methods,
    METHOD_HEADLINES.map((h) => h.method),
  );
  const only = await methodStages(
    "compare",
    parseMethodSection("compare", { methods: ["crux", "keypoints"] }, "x.json"),
    CTX,
  );
  assert.deepEqual((only[0].params as { methods: string[] }).methods, ["crux", "keypoints"]);
  // The experiment's headlines, when given, decide instead.
  const named = await methodStages("compare", {}, {
    ...CTX,
    headlines: METHOD_HEADLINES.filter((h) => h.method === "crux" || h.method === "subq"),
  });
  assert.deepEqual((named[0].params as { methods: string[] }).methods, ["crux", "subq"]);
});
