import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { cacheKey, cacheKeyJson } from "./cache_key.ts";

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

/** How keys were computed before the one-pass writer: a sorted copy, then `JSON.stringify`. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortedCopy(v);
    }
    return out;
  }
  return value;
}

Deno.test("cacheKeyJson writes what JSON.stringify of a sorted copy wrote, for any value", () => {
  const cases: unknown[] = [
    { b: 1, a: [undefined, () => 1, Symbol("s"), null, { d: undefined, c: "x" }] },
    { ["__proto__"]: { x: 1 }, z: new Date(0), m: new Map([["k", 1]]), n: NaN, i: -Infinity },
    JSON.parse('{"__proto__": 5, "é": "\\u2028", "\\ud800": "lone", "": -0}'),
    Object.assign(Object.create(null), { b: 2, a: 1 }),
    // Array-index keys come first, numerically, wherever sorting puts them.
    { "10": 1, "9": 2, "": 3, a: 4, "01": 5, "4294967295": 6, "4294967294": 7 },
    "text",
    ["", 0, false, 1e21, 5e-324],
  ];
  for (const c of cases) assert.equal(cacheKeyJson(c), JSON.stringify(sortedCopy(c)));
  fc.assert(
    fc.property(
      fc.anything({ withNullPrototype: true, withObjectString: true, maxDepth: 4 }),
      (value) => cacheKeyJson(value) === JSON.stringify(sortedCopy(value)),
    ),
    { numRuns: 2000 },
  );
  assert.throws(() => cacheKeyJson({ a: 1n }), TypeError);
});
