import assert from "node:assert/strict";
import { loadExperimentConfig, parseExperimentConfig } from "@lib/experiment/mod.ts";
import { experimentPaths } from "@lib/analysis/mod.ts";
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { cruxSettings } from "@lib/pipeline/crux_settings.ts";

const parse = (obj: unknown, opts: { experiment?: string } = {}) =>
  parseExperimentConfig(JSON.stringify(obj), { file: "exp.json", root: "/repo", ...opts });

Deno.test("parseExperimentConfig: paths in the config resolve against its folder; the experiment renames the workspace", () => {
  const at = (obj: unknown, opts: { experiment?: string } = {}) =>
    parseExperimentConfig(JSON.stringify(obj), {
      file: "/elsewhere/configs/exp.json",
      root: "/repo",
      ...opts,
    });
  const cfg = at({
    name: "demo",
    dataset: { source: "sample" },
    analysis: { human: "../data/h.jsonl" },
  });
  // Defaults (no path written in the config) stay under the root.
  assert.equal(cfg.workspace, "/repo/outputs/demo");
  assert.deepEqual(cfg.dataset, { source: "sample", dir: "/repo/datasets/sample" });
  assert.equal(cfg.analysis!.human, "/elsewhere/data/h.jsonl");
  assert.deepEqual(at({ name: "d", dataset: { source: "sample", dir: "../s" } }).dataset, {
    source: "sample",
    dir: "/elsewhere/s",
  });
  const crux = at({
    name: "d",
    dataset: {
      source: "crux",
      corpus: "c.jsonl",
      topics: "/abs/t.jsonl",
      judgments: "../j.jsonl",
      qrels: ["q.txt"],
    },
  }).dataset;
  assert.deepEqual(crux, {
    source: "crux",
    corpus: "/elsewhere/configs/c.jsonl",
    topics: "/abs/t.jsonl",
    judgments: "/elsewhere/j.jsonl",
    qrels: ["/elsewhere/configs/q.txt"],
  });
  const renamed = at({ name: "demo", workspace: "elsewhere" }, { experiment: "nb-1" });
  assert.equal(renamed.name, "nb-1");
  assert.equal(renamed.workspace, "/repo/outputs/nb-1");
  assert.equal(at({ name: "demo", workspace: "ws/x" }).workspace, "/elsewhere/configs/ws/x");
});

Deno.test("loadExperimentConfig: a config copied to another folder names the field of a missing file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const src = new URL("../../notebooks/configs/sample-offline.json", import.meta.url).pathname;
    await Deno.copyFile(src, `${dir}/copy.json`);
    await assert.rejects(
      () => loadExperimentConfig(`${dir}/copy.json`),
      (e: Error) => {
        assert.match(e.message, new RegExp(`"${dir}/copy\\.json": field "dataset\\.dir"`));
        assert.match(
          e.message,
          /does not exist; relative paths resolve against the config's folder/,
        );
        return true;
      },
    );
    // Absolute paths make the copy work from anywhere.
    const raw = JSON.parse(await Deno.readTextFile(src));
    const root = new URL("../../", import.meta.url).pathname;
    raw.dataset.dir = `${root}datasets/sample`;
    raw.subq.preferences = `${root}datasets/sample/preferences.jsonl`;
    await Deno.writeTextFile(`${dir}/copy.json`, JSON.stringify(raw));
    const cfg = await loadExperimentConfig(`${dir}/copy.json`, { root: dir });
    assert.equal(cfg.workspace, `${dir}/outputs/sample`);
    delete raw.dataset.dir;
    raw.subq.preferences = "nowhere.jsonl";
    await Deno.writeTextFile(`${dir}/copy.json`, JSON.stringify(raw));
    await assert.rejects(
      () => loadExperimentConfig(`${dir}/copy.json`),
      new RegExp(`field "subq\\.preferences" names "${dir}/nowhere\\.jsonl", which does not exist`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseExperimentConfig: mistakes name the file and the field", () => {
  assert.throws(
    () => parse({ name: "d", retreive: [] }),
    /"exp\.json": field "retreive" is unknown; known fields: name, workspace/,
  );
  assert.throws(() => parse({ name: "a b" }), /field "name" must be a folder-safe name/);
  assert.throws(
    () => parse({ name: "d", backend: "vllm" }),
    /field "backend" must be "offline" or "openai", got "vllm"/,
  );
  assert.throws(
    () => parse({ name: "d", rerank: [{ name: "m", from: "dense", method: "mmr" }] }),
    /field "rerank\[0\]\.from" must name a retrieve run \(bm25\), got "dense"/,
  );
  assert.throws(
    () => parse({ name: "d", rerank: [{ name: "m", from: "bm25", method: "mmr", lambda: 2 }] }),
    /field "rerank\[0\]\.lambda" must be a number in \[0, 1\], got 2/,
  );
  assert.throws(
    () => parseExperimentConfig("{", { file: "x.json" }),
    /Cannot read experiment config "x\.json": .*fix the JSON/,
  );
});

Deno.test("the bundled configs parse, hold no secret and name the offline pipelines", async () => {
  const dir = new URL("../../notebooks/configs/", import.meta.url).pathname;
  const offline = await loadExperimentConfig(`${dir}sample-offline.json`, { root: "/repo" });
  assert.equal(offline.backend, "offline");
  assert.deepEqual(offline.retrieve!.map((r) => [r.name, r.kind ?? "bm25"]), [
    ["bm25", "bm25"],
    ["bm25-k1.2-b0.75", "bm25"],
    ["dense-tfidf", "dense"],
    ["hybrid", "fusion"],
  ]);
  assert.deepEqual(offline.retrieve![3], {
    name: "hybrid",
    kind: "fusion",
    runs: ["bm25", "dense-tfidf"],
    method: "rrf",
    k: 60,
  });
  assert.deepEqual(offline.rerank!.map((r) => [r.name, r.from, r.method]), [
    ["bm25-mmr0.5", "bm25", "mmr"],
    ["bm25-mmr0.75", "bm25", "mmr"],
  ]);
  const online = await loadExperimentConfig(`${dir}online.json`, { root: "/repo" });
  assert.equal(online.backend, "openai");
  assert.deepEqual(online.retrieve!.at(-1), {
    name: "dense-openai",
    kind: "dense",
    embedder: "openai",
    k: 100,
  });
  assert.deepEqual(online.rerank!.at(-1), {
    name: "bm25-ce",
    from: "bm25",
    method: "endpoint",
    depth: 50,
  });
  const text = await Deno.readTextFile(`${dir}online.json`);
  assert.doesNotMatch(text, /sk-|"apiKey"|"model"/);
});

Deno.test("parseExperimentConfig: dense, fusion, file and endpoint runs; run files resolve against the config's folder", () => {
  const cfg = parseExperimentConfig(
    JSON.stringify({
      name: "d",
      backend: "openai",
      retrieve: [
        { name: "bm25", k: 100, k1: 0.9, b: 0.4 },
        { name: "dense-tfidf", kind: "dense", embedder: "tfidf", dimensions: 256 },
        { name: "dense-oa", kind: "dense", embedder: "openai" },
        { name: "hybrid", kind: "fusion", runs: ["bm25", "dense-tfidf"], method: "rrf", k: 60 },
        {
          name: "mnz",
          kind: "fusion",
          runs: ["bm25", "dense-oa", "hybrid"],
          method: "combmnz",
          normalization: "zscore",
          depth: 50,
        },
        { name: "mine", kind: "file", path: "runs/x.trec" },
        { name: "abs", kind: "file", path: "/data/y.trec" },
      ],
      rerank: [
        { name: "ce", from: "hybrid", method: "endpoint", depth: 20, api: "score" },
        { name: "mmr", from: "mine", method: "mmr" },
      ],
    }),
    { file: "/repo/configs/exp.json", root: "/repo" },
  );
  assert.deepEqual(cfg.retrieve!.map((r) => r.name), [
    "bm25",
    "dense-tfidf",
    "dense-oa",
    "hybrid",
    "mnz",
    "mine",
    "abs",
  ]);
  assert.deepEqual(cfg.retrieve![5], {
    name: "mine",
    kind: "file",
    path: "/repo/configs/runs/x.trec",
  });
  assert.equal((cfg.retrieve![6] as { path: string }).path, "/data/y.trec");
  assert.deepEqual(cfg.rerank![0], {
    name: "ce",
    from: "hybrid",
    method: "endpoint",
    depth: 20,
    api: "score",
  });
  // No retrieve list: the default BM25 run stays implicit and can be reranked.
  const plain = parse({ name: "d", rerank: [{ name: "m", from: "bm25", method: "mmr" }] });
  assert.equal(plain.retrieve, undefined);
});

Deno.test("parseExperimentConfig: bad runs name the field and what is wrong", () => {
  const bad = (retrieve: unknown[], rerank: unknown[] = [], backend = "offline") => () =>
    parse({ name: "d", backend, retrieve, rerank });
  const bm25 = { name: "bm25" };
  const cases: [() => unknown, RegExp][] = [
    [bad(["bm25"]), /field "retrieve\[0\]" must be an object with a "name", got "bm25"/],
    [bad([{ name: "a b" }]), /field "retrieve\[0\]\.name" must be a run name without spaces/],
    [bad([bm25, bm25]), /field "retrieve\[1\]\.name" repeats the run name "bm25"/],
    [
      bad([{ name: "x", kind: "splade" }]),
      /field "retrieve\[0\]\.kind" must be one of "bm25", "dense", "fusion", "file", got "splade"/,
    ],
    [bad([{ name: "x", k: 0 }]), /field "retrieve\[0\]\.k" must be a positive integer, got 0/],
    [bad([{ name: "x", b: 2 }]), /field "retrieve\[0\]\.b" must be a number in \[0, 1\], got 2/],
    [
      bad([{ name: "x", kind: "dense", embeder: "tfidf" }]),
      /field "retrieve\[0\]\.embeder" is unknown; fields of kind "dense": name, kind, embedder, k, dimensions/,
    ],
    [
      bad([{ name: "x", kind: "dense" }]),
      /field "retrieve\[0\]\.embedder" is required: one of "tfidf", "openai"/,
    ],
    [
      bad([{ name: "x", kind: "dense", embedder: "openai" }]),
      /field "retrieve\[0\]\.embedder" "openai" calls an embeddings endpoint; set "backend": "openai" or use "tfidf" offline/,
    ],
    [
      bad([{ name: "x", kind: "dense", embedder: "openai", dimensions: 8 }], [], "openai"),
      /field "retrieve\[0\]\.dimensions" applies only to embedder "tfidf"/,
    ],
    [
      bad([bm25, { name: "h", kind: "fusion", runs: ["bm25"], method: "rrf" }]),
      /field "retrieve\[1\]\.runs" must list at least two runs to fuse, got \["bm25"\]/,
    ],
    [
      bad([bm25, { name: "h", kind: "fusion", runs: ["bm25", "dense"], method: "rrf" }]),
      /field "retrieve\[1\]\.runs\[1\]" must name an earlier retrieve run \(bm25\), got "dense"/,
    ],
    [
      bad([bm25, { name: "h", kind: "fusion", runs: ["bm25", "bm25"], method: "rrf" }]),
      /field "retrieve\[1\]\.runs\[1\]" repeats the run "bm25"/,
    ],
    [
      bad([bm25, { name: "d", kind: "dense", embedder: "tfidf" }, {
        name: "h",
        kind: "fusion",
        runs: ["bm25", "d"],
        method: "borda",
      }]),
      /field "retrieve\[2\]\.method" must be one of "rrf", "combsum", "combmnz", got "borda"/,
    ],
    [
      bad([bm25, { name: "d", kind: "dense", embedder: "tfidf" }, {
        name: "h",
        kind: "fusion",
        runs: ["bm25", "d"],
        method: "combsum",
        k: 60,
      }]),
      /field "retrieve\[2\]\.k" is the RRF rank offset; only method "rrf" takes it/,
    ],
    [
      bad([bm25, { name: "d", kind: "dense", embedder: "tfidf" }, {
        name: "h",
        kind: "fusion",
        runs: ["bm25", "d"],
        method: "rrf",
        normalization: "minmax",
      }]),
      /field "retrieve\[2\]\.normalization" applies only to "combsum" and "combmnz"/,
    ],
    [
      bad([{ name: "f", kind: "file" }]),
      /field "retrieve\[0\]\.path" must be the path of a TREC run file, got undefined/,
    ],
    [
      bad([bm25], [{ name: "ce", from: "bm25", method: "endpoint" }]),
      /field "rerank\[0\]\.method" "endpoint" calls a cross-encoder endpoint \(the reranker role\); set "backend": "openai" or use "mmr" offline/,
    ],
    [
      bad([bm25], [{ name: "ce", from: "bm25", method: "colbert" }]),
      /field "rerank\[0\]\.method" must be one of "lexical", "mmr", "listwise", "first-token", "setwise", "setwise-logprobs", "pointwise", "endpoint", got "colbert"/,
    ],
    [
      bad([bm25], [{ name: "ce", from: "bm25", method: "endpoint", lambda: 0.5 }], "openai"),
      /field "rerank\[0\]\.lambda" is unknown; fields of method "endpoint": name, from, method, depth, api/,
    ],
    [
      bad([bm25], [{ name: "bm25", from: "bm25", method: "mmr" }]),
      /field "rerank\[0\]\.name" repeats the run name "bm25"/,
    ],
  ];
  for (const [f, re] of cases) assert.throws(f, re);
  // Every message names the file.
  assert.throws(bad([{ name: "x", kind: "dense" }]), /Cannot read experiment config "exp\.json"/);
});

Deno.test("experimentPaths: from the notebooks folder or the root; unsafe names refused", () => {
  assert.deepEqual(experimentPaths("sample", { cwd: "/repo/notebooks" }), {
    root: "/repo",
    outDir: "/repo/outputs/sample",
    tables: "/repo/outputs/sample/tables",
    figures: "/repo/outputs/sample/figures",
  });
  assert.equal(experimentPaths("x", { cwd: "/repo" }).outDir, "/repo/outputs/x");
  assert.throws(() => experimentPaths("../etc"), /Cannot use experiment name "..\/etc"/);
});

Deno.test("parseExperimentConfig: CRUX settings out of range name the config file and the field", () => {
  const fails = (fields: Record<string, unknown>, field: string, what: RegExp) =>
    assert.throws(
      () => parse({ name: "d", ...fields }),
      (e: Error) => {
        assert.ok(e instanceof TypeError);
        assert.match(
          e.message,
          new RegExp(
            `^Cannot read experiment config "exp\\.json": field "${
              field.replace(/[.[\]]/g, "\\$&")
            }" `,
          ),
        );
        assert.match(e.message, what);
        return true;
      },
    );
  fails({ analysis: { tau: 0 } }, "analysis.tau", /must be an integer 1-5 .*default 3\), got 0$/);
  fails({ analysis: { tau: 3.5 } }, "analysis.tau", /integer 1-5.*got 3\.5/);
  fails({ analysis: { tau: "3" } }, "analysis.tau", /integer 1-5.*got "3"/);
  fails({ construct: { tau: 6 } }, "construct.tau", /integer 1-5.*got 6/);
  fails({ analysis: { w: -1 } }, "analysis.w", /number >= 0 .*default 0\.5\), got -1/);
  fails({ analysis: { w: "0.5" } }, "analysis.w", /got "0\.5"/);
  fails({ analysis: { thresholds: [] } }, "analysis.thresholds", /non-empty list.*\[3,5\]/);
  fails({ analysis: { thresholds: [3, 7] } }, "analysis.thresholds[1]", /integer 1-5.*got 7/);
  fails(
    { analysis: { cutoffs: ["oracle", 0] } },
    "analysis.cutoffs",
    /positive integers or "oracle" \(default \["oracle",10,20\]\)/,
  );
  fails({ analysis: { cutoffs: "oracle" } }, "analysis.cutoffs", /got "oracle"/);
  fails(
    { analysis: { contexts: { cutoffs: [10, "P*"] } } },
    "analysis.contexts.cutoffs",
    /\(default \[10,"oracle"\]\), got \[10,"P\*"\]/,
  );
  fails({ analysis: { contexts: { runs: [] } } }, "analysis.contexts.runs", /non-empty list/);
  fails({ analysis: { contexts: { runs: [3] } } }, "analysis.contexts.runs[0]", /got 3/);
  fails({ analysis: { contexts: { depth: 5 } } }, "analysis.contexts.depth", /is unknown/);
  fails({ analysis: [] }, "analysis", /must be an object/);
});

Deno.test("parseExperimentConfig: CRUX settings left out take CRUX_DEFAULTS; written ones stay as written", () => {
  const bare = parse({ name: "d" });
  assert.equal(bare.analysis, undefined, "the config is not rewritten (analysis fingerprints)");
  assert.deepEqual(cruxSettings(bare), {
    constructTau: 3,
    tau: 3,
    w: 0.5,
    thresholds: [3, 5],
    cutoffs: ["oracle", 10, 20],
    taus: [3, 5],
    evaluation: { runs: ["bm25"], cutoffs: [10, "oracle"] },
  });
  const given = parse({
    name: "d",
    construct: { tau: 4 },
    retrieve: [{ name: "lex", kind: "bm25" }],
    analysis: { tau: 5, w: 0, thresholds: [1, 5], cutoffs: [5], contexts: { cutoffs: ["oracle"] } },
  });
  assert.deepEqual(given.analysis, {
    tau: 5,
    w: 0,
    thresholds: [1, 5],
    cutoffs: [5],
    contexts: { cutoffs: ["oracle"] },
  });
  assert.deepEqual(cruxSettings(given), {
    constructTau: 4,
    tau: 5,
    w: 0,
    thresholds: [1, 5],
    cutoffs: [5],
    taus: [5, 1],
    evaluation: { runs: ["lex"], cutoffs: ["oracle"] },
  });
});

Deno.test("loadExperimentConfig: the bundled configs pass the CRUX checks and resolve to the defaults", async () => {
  for (const name of ["sample-offline", "online", "sample-grid"]) {
    const file = new URL(`../../notebooks/configs/${name}.json`, import.meta.url).pathname;
    const s = cruxSettings(parseExperimentConfig(await Deno.readTextFile(file), { file }));
    assert.deepEqual([s.constructTau, s.tau, s.w], [3, 3, 0.5], name);
    assert.deepEqual(s.thresholds, [...CRUX_DEFAULTS.thresholds], name);
    assert.deepEqual(s.cutoffs, [...CRUX_DEFAULTS.contextCutoffs], name);
  }
});
