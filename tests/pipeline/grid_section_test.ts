import assert from "node:assert/strict";
import { parseExperimentConfig } from "@lib/experiment/mod.ts";

const FILE = "/cfg/grid.json";
const base = {
  name: "g",
  retrieve: [{ name: "bm25" }, { name: "dense", kind: "dense", embedder: "tfidf" }],
};
const parse = (extra: Record<string, unknown>) =>
  parseExperimentConfig(JSON.stringify({ ...base, ...extra }), { file: FILE, root: "/r" });

Deno.test("grid: every first stage x every reranker, named <first>+<reranker>", () => {
  const cfg = parse({
    rerank: [{ name: "bm25-mmr", from: "bm25", method: "mmr" }],
    grid: {
      first: ["dense", "bm25"],
      rerankers: [{ method: "lexical", depth: 20 }, { name: "mmr7", method: "mmr", lambda: 0.7 }],
      prices: { "gpt-x": { input: 0.15, output: 0.6 } },
    },
  });
  assert.deepEqual(cfg.grid?.cells, [
    { run: "dense+lexical", first: "dense", reranker: "lexical" },
    { run: "dense+mmr7", first: "dense", reranker: "mmr7" },
    { run: "bm25+lexical", first: "bm25", reranker: "lexical" },
    { run: "bm25+mmr7", first: "bm25", reranker: "mmr7" },
  ]);
  assert.deepEqual(cfg.grid?.first, ["dense", "bm25"]);
  assert.deepEqual(cfg.grid?.prices, { "gpt-x": { input: 0.15, output: 0.6 } });
  // Cells are reranked runs after the explicit ones, with their settings and first stage.
  assert.deepEqual(cfg.rerank, [
    { name: "bm25-mmr", from: "bm25", method: "mmr" },
    { name: "dense+lexical", from: "dense", method: "lexical", depth: 20 },
    { name: "dense+mmr7", from: "dense", method: "mmr", lambda: 0.7 },
    { name: "bm25+lexical", from: "bm25", method: "lexical", depth: 20 },
    { name: "bm25+mmr7", from: "bm25", method: "mmr", lambda: 0.7 },
  ]);
  // Without "first": every retrieve run, in config order.
  const all = parse({ grid: { rerankers: [{ method: "lexical" }] } });
  assert.deepEqual(all.grid?.cells.map((c) => c.run), ["bm25+lexical", "dense+lexical"]);
});

Deno.test("grid: errors name the config file and the field", () => {
  const cases: [unknown, RegExp][] = [
    [[1], /field "grid" must be an object with "first" and "rerankers"/],
    [
      { rerankers: [{ method: "lexical" }], size: 3 },
      /field "grid\.size" is unknown; known: first, rerankers, prices/,
    ],
    [
      { first: ["bm25", "splade"], rerankers: [{ method: "lexical" }] },
      /field "grid\.first\[1\]" must name a retrieve run \(bm25, dense\), got "splade"/,
    ],
    [
      { first: ["bm25", "bm25"], rerankers: [{ method: "lexical" }] },
      /field "grid\.first\[1\]" repeats the run "bm25"/,
    ],
    [
      { first: [], rerankers: [{ method: "lexical" }] },
      /field "grid\.first" must be a non-empty list/,
    ],
    [{ rerankers: [] }, /field "grid\.rerankers" must be a non-empty list of rerankers/],
    [
      { rerankers: [{ method: "lexical" }, { method: "lexical" }] },
      /field "grid\.rerankers\[1\]\.name" repeats the reranker name "lexical"/,
    ],
    [
      { rerankers: [{ method: "lexical", from: "bm25" }] },
      /field "grid\.rerankers\[0\]\.from" is set by the grid/,
    ],
    [
      { rerankers: [{ name: "a b", method: "lexical" }] },
      /field "grid\.rerankers\[0\]\.name" must be a reranker name/,
    ],
    [
      { rerankers: [{ method: "colbert" }] },
      /field "grid\.rerankers\[0\]\.method" must be one of "lexical", "mmr"/,
    ],
    [
      { rerankers: [{ method: "lexical", lambda: 0.5 }] },
      /field "grid\.rerankers\[0\]\.lambda" is unknown; fields of method "lexical"/,
    ],
    [
      { rerankers: [{ method: "mmr", lambda: 2 }] },
      /field "grid\.rerankers\[0\]\.lambda" must be a number in \[0, 1\], got 2/,
    ],
    [
      { rerankers: [{ method: "listwise" }] },
      /field "grid\.rerankers\[0\]\.method" "listwise" calls an LLM \(the reranker role\); set "backend": "openai"/,
    ],
    [
      { rerankers: [{ method: "mmr", vectors: "embedder" }] },
      /field "grid\.rerankers\[0\]\.vectors" "embedder" calls an embeddings endpoint/,
    ],
    [
      { rerankers: [{ method: "lexical" }], prices: { m: { input: -1, output: 1 } } },
      /field "grid\.prices\.m\.input" must be US dollars per million tokens \(a number >= 0\), got -1/,
    ],
    [
      { rerankers: [{ method: "lexical" }], prices: { m: { input: 1, output: 1, cached: 0 } } },
      /field "grid\.prices\.m\.cached" is unknown/,
    ],
  ];
  for (const [grid, message] of cases) {
    assert.throws(() => parse({ grid }), (e: Error) => {
      assert.ok(e instanceof TypeError, String(e));
      assert.match(e.message, /^Cannot read experiment config "\/cfg\/grid\.json": /);
      assert.match(e.message, message);
      return true;
    });
  }
  // A cell may not take a name the config already uses.
  assert.throws(
    () =>
      parse({
        rerank: [{ name: "bm25+lexical", from: "bm25", method: "mmr" }],
        grid: { rerankers: [{ method: "lexical" }] },
      }),
    /field "grid\.rerankers\[0\]\.name" makes the run "bm25\+lexical", which the config already names/,
  );
  // Model rerankers are accepted online, with their settings checked.
  const online = parseExperimentConfig(
    JSON.stringify({
      ...base,
      backend: "openai",
      grid: {
        first: ["bm25"],
        rerankers: [
          { method: "listwise", window: 10, stride: 5 },
          { method: "setwise", c: 3, k: 5 },
          { method: "pointwise" },
          { method: "endpoint", api: "score" },
        ],
      },
    }),
    { file: FILE, root: "/r" },
  );
  assert.deepEqual(online.rerank?.map((r) => r.name), [
    "bm25+listwise",
    "bm25+setwise",
    "bm25+pointwise",
    "bm25+endpoint",
  ]);
  assert.throws(
    () =>
      parseExperimentConfig(
        JSON.stringify({
          ...base,
          backend: "openai",
          grid: { rerankers: [{ method: "listwise", window: 5, stride: 8 }] },
        }),
        { file: FILE, root: "/r" },
      ),
    /field "grid\.rerankers\[0\]\.stride" must not exceed the window \(5\), got 8/,
  );
});
