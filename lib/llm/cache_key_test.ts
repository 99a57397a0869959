import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cacheKey } from "./cache_key.ts";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const messages = [{ role: "user", content: "hi" }];

Deno.test("cacheKey hashes the canonical JSON of model, params, messages and template", () => {
  const key = cacheKey({ model: "m", params: { temperature: 0 }, messages });
  assert.equal(
    key,
    sha(
      '{"messages":[{"content":"hi","role":"user"}],"model":"m","params":{"temperature":0},"template":null}',
    ),
  );
  assert.equal(
    cacheKey({ model: "m", params: {}, messages, template: "answerability@1" }),
    sha(
      '{"messages":[{"content":"hi","role":"user"}],"model":"m","params":{},"template":"answerability@1"}',
    ),
  );
});

Deno.test("cacheKey ignores key order and undefined fields, and separates everything else", () => {
  const a = cacheKey({ model: "m", params: { temperature: 0, top_p: 1 }, messages });
  assert.equal(
    a,
    cacheKey({ model: "m", params: { top_p: 1, temperature: 0, seed: undefined }, messages }),
  );
  assert.notEqual(a, cacheKey({ model: "m2", params: { temperature: 0, top_p: 1 }, messages }));
  assert.notEqual(a, cacheKey({ model: "m", params: { temperature: 0.2, top_p: 1 }, messages }));
  assert.notEqual(
    a,
    cacheKey({ model: "m", params: { temperature: 0, top_p: 1 }, messages, template: "t@1" }),
  );
  assert.notEqual(
    a,
    cacheKey({ model: "m", params: { temperature: 0, top_p: 1 }, messages, template: "t@2" }),
  );
  assert.notEqual(
    a,
    cacheKey({ kind: "embeddings", model: "m", params: { temperature: 0, top_p: 1 }, messages }),
  );
});
