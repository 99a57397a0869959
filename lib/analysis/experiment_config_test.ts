import assert from "node:assert/strict";
import { loadExperimentConfig, parseExperimentConfig } from "./experiment_config.ts";
import { experimentPaths } from "./experiment_paths.ts";

const parse = (obj: unknown, opts: { experiment?: string } = {}) =>
  parseExperimentConfig(JSON.stringify(obj), { file: "exp.json", root: "/repo", ...opts });

Deno.test("parseExperimentConfig: paths resolve against the root; the experiment renames the workspace", () => {
  const cfg = parse({
    name: "demo",
    dataset: { source: "sample" },
    analysis: { human: "datasets/h.jsonl" },
  });
  assert.equal(cfg.workspace, "/repo/outputs/demo");
  assert.deepEqual(cfg.dataset, { source: "sample", dir: "/repo/datasets/sample" });
  assert.equal(cfg.analysis!.human, "/repo/datasets/h.jsonl");
  const renamed = parse({ name: "demo", workspace: "elsewhere" }, { experiment: "nb-1" });
  assert.equal(renamed.name, "nb-1");
  assert.equal(renamed.workspace, "/repo/outputs/nb-1");
  assert.equal(parse({ name: "demo", workspace: "ws/x" }).workspace, "/repo/ws/x");
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
  assert.deepEqual(offline.retrieve!.map((r) => r.name), ["bm25", "bm25-k1.2-b0.75"]);
  assert.deepEqual(offline.rerank!.map((r) => [r.name, r.from, r.vectors]), [
    ["bm25-mmr0.5", "bm25", "tfidf"],
    ["bm25-mmr0.75", "bm25", "tfidf"],
  ]);
  const online = await loadExperimentConfig(`${dir}online.json`, { root: "/repo" });
  assert.equal(online.backend, "openai");
  const text = await Deno.readTextFile(`${dir}online.json`);
  assert.doesNotMatch(text, /sk-|"apiKey"|"model"/);
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
