import assert from "node:assert/strict";
import { DEFAULT_BASE_URL, resolveRoleConfig } from "./llm_config.ts";

Deno.test("resolveRoleConfig: flags > role env > config role > general env > config > defaults", () => {
  const config = {
    baseUrl: "http://cfg/v1",
    concurrency: 4,
    roles: {
      judge: { model: "cfg-judge", temperature: 0, maxTokens: 5, apiKeyEnv: "MY_JUDGE_KEY" },
    },
  };
  assert.deepEqual(resolveRoleConfig("judge", { env: {}, config }), {
    model: "cfg-judge",
    baseUrl: "http://cfg/v1",
    apiKey: undefined,
    params: { temperature: 0, maxTokens: 5 },
    concurrency: 4,
    maxRetries: undefined,
    timeoutMs: undefined,
    maxRetryWaitMs: undefined,
    maxAnswerBytes: undefined,
    rpm: undefined,
    tpm: undefined,
    templatesDir: undefined,
  });
  const env = {
    OPENAI_BASE_URL: "http://env/v1",
    OPENAI_API_KEY: "k-general",
    MY_JUDGE_KEY: "k-judge",
    CRUX_JUDGE_MODEL: "env-judge",
    CRUX_LLM_CONCURRENCY: "16",
  };
  const r = resolveRoleConfig("judge", { env, config });
  assert.deepEqual([r.model, r.baseUrl, r.apiKey, r.concurrency], [
    "env-judge",
    "http://env/v1",
    "k-judge",
    16,
  ]);
  const f = resolveRoleConfig("judge", {
    env,
    config,
    overrides: { model: "flag", baseUrl: "http://flag/v1", concurrency: 2 },
  });
  assert.deepEqual([f.model, f.baseUrl, f.concurrency], ["flag", "http://flag/v1", 2]);
  const g = resolveRoleConfig("generator", {
    env: { CRUX_GENERATOR_MODEL: "g", CRUX_GENERATOR_API_KEY: "k-gen" },
  });
  assert.deepEqual([g.model, g.baseUrl, g.apiKey, g.concurrency], [
    "g",
    DEFAULT_BASE_URL,
    "k-gen",
    8,
  ]);
});

Deno.test("resolveRoleConfig explains a missing model and a bad number", () => {
  assert.throws(() => resolveRoleConfig("embedder", { env: {} }), {
    name: "TypeError",
    message:
      "No model for the embedder role: pass --model, set CRUX_EMBEDDER_MODEL, or set llm.roles.embedder.model in the config",
  });
  assert.throws(
    () =>
      resolveRoleConfig("judge", { env: { CRUX_JUDGE_MODEL: "m", CRUX_LLM_CONCURRENCY: "many" } }),
    /Invalid CRUX_LLM_CONCURRENCY="many": expected a number/,
  );
});
