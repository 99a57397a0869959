import assert from "node:assert/strict";
import { LlmClient } from "@lib/llm/mod.ts";
import {
  KEYPOINTS,
  METHOD_HEADLINES,
  METHOD_REGISTRY,
  methodByKey,
  methodStages,
  NUGGETS,
  parseMethodSection,
  SUBQ,
} from "./mod.ts";

Deno.test("the registry: methods in stage order, their headlines, lookups that name the known keys", () => {
  assert.deepEqual(METHOD_REGISTRY.map((m) => m.key), [
    "crux",
    "nuggets",
    "keypoints",
    "subq",
    "compare",
  ]);
  assert.deepEqual(METHOD_HEADLINES.map((h) => `${h.method}/${h.measure}/${h.source ?? "*"}`), [
    "crux/Cov/report",
    "nuggets/strict_vital/*",
    "keypoints/KPR/*",
    "subq/subq_rating/*",
  ]);
  assert.equal(methodByKey("subq"), SUBQ);
  assert.throws(
    () => methodByKey("bleu"),
    /Unknown method "bleu"; methods: crux, nuggets, keypoints, subq, compare/,
  );
  assert.throws(
    () => parseMethodSection("crux", {}, "x.json"),
    /Method "crux" has no config section/,
  );
});

Deno.test("the comparison's section is checked against the registry's methods", () => {
  assert.deepEqual(parseMethodSection("compare", { methods: ["crux", "subq"] }, "x.json"), {
    methods: ["crux", "subq"],
  });
  assert.throws(
    () => parseMethodSection("compare", { methods: ["crux", "bleu"] }, "x.json"),
    /x\.json: compare\.methods: expected a list of crux, nuggets, keypoints, subq/,
  );
  assert.throws(
    () => parseMethodSection("compare", { judges: { compare: "m" } }, "x.json"),
    /compare\.judges\.compare: expected a name for one of crux, nuggets, keypoints, subq/,
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

Deno.test("methodStages declares a method's stages with the registry's headlines", async () => {
  const ctx = {
    backend: "offline" as const,
    answerRuns: ["rag-bm25", "direct"],
    answerStages: ["generate:rag-bm25", "generate:direct"],
    dataStages: ["dataset"],
    judgeStages: ["judge:rag-bm25", "judge:direct"],
    outDir: "outputs/x",
    configFile: "x.json",
  };
  const specs = await methodStages("compare", parseMethodSection("compare", {}, "x.json"), ctx);
  assert.deepEqual(specs.map((s) => s.id), ["measure:compare"]);
  assert.deepEqual((specs[0].params as { methods: string[] }).methods, [
    "crux",
    "nuggets",
    "keypoints",
    "subq",
  ]);
  const only = await methodStages(
    "compare",
    parseMethodSection("compare", { methods: ["crux", "keypoints"] }, "x.json"),
    ctx,
  );
  assert.deepEqual((only[0].params as { methods: string[] }).methods, ["crux", "keypoints"]);
});
