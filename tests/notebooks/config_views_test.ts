/**
 * Notebooks are views of the experiment config: after `crux run` on a
 * release-format experiment with all four evaluation methods, executing
 * notebooks 01-09 on the same config runs no stage (every stage record of the memo
 * keeps its fingerprint and time), leaves every table `crux run` wrote
 * byte-identical, and adds no generation run the config does not name. The
 * notebooks also show nothing of the sample on this experiment.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { executeNotebook } from "./_execute.ts";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { openWorkspace } from "../../lib/store/mod.ts";

const root = new URL("../../", import.meta.url).pathname;
const fixtures = join(root, "tests", "golden", "crux", "fixtures");
const NOTEBOOKS = [
  "01_dataset.ipynb",
  "02_retrieval_and_context_eval.ipynb",
  "03_generation.ipynb",
  "04_judging.ipynb",
  "05_analysis.ipynb",
  "06_nuggets.ipynb",
  "07_keypoints.ipynb",
  "08_subquestion_types.ipynb",
  "09_methods_side_by_side.ipynb",
];

/** SHA-256 of every file under `dir`, by path relative to it. */
async function digests(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) {
      for (const [k, v] of await digests(path)) out.set(`${e.name}/${k}`, v);
    } else if (e.isFile) {
      const d = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
      out.set(e.name, [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join(""));
    }
  }
  return out;
}

async function snapshot(workspace: string) {
  const ws = await openWorkspace(workspace, { readOnly: true });
  try {
    const stages = await ws.query<{ id: string; fingerprint: string; at: string }>(
      `SELECT key AS id, fingerprint, recorded_at::VARCHAR AS at FROM memo
       WHERE kind = 'stage' ORDER BY id`,
    );
    const runs = (await ws.query<{ run: string }>(
      "SELECT DISTINCT run FROM generations ORDER BY run",
    )).map((r) => r.run);
    const measures = await ws.query<{ n: number }>(
      "SELECT count(*)::INTEGER AS n FROM measures",
    );
    return { stages, runs, measures: measures[0].n };
  } finally {
    ws.close();
  }
}

Deno.test({
  name:
    "after crux run, notebooks 01-09 on the same config run no stage and rewrite every table byte for byte",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const experiment = `nbviews-${crypto.randomUUID().slice(0, 8)}`;
    const dir = await Deno.makeTempDir();
    const config = join(dir, "release.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        name: "release",
        dataset: {
          source: "crux",
          corpus: join(fixtures, "corpus.jsonl"),
          topics: join(fixtures, "topics.jsonl"),
          judgments: join(fixtures, "judgments.jsonl"),
          subquestions: join(fixtures, "subquestions.json"),
        },
        backend: "offline",
        retrieve: [
          { name: "bm25", k: 50 },
          { name: "dense", kind: "file", path: join(fixtures, "runs", "dense.run") },
        ],
        analysis: { correlation: { samples: 4, size: 5, depth: 20, seed: 1 } },
        nuggets: {},
        keypoints: {},
        subq: { n: 8, variants: [] },
        compare: { minRuns: 3 },
      }),
    );
    const workspace = join(root, "outputs", experiment);
    try {
      const io = memoryIo();
      const code = await main(
        ["run", "--config", config, "--experiment", experiment],
        io,
        COMMANDS,
      );
      assert.equal(code, 0, io.stderr());
      assert.match(io.stderr(), /\[select\] select: judge "import:judgments\.jsonl"/);
      const before = await snapshot(workspace);
      const tables = await digests(join(workspace, "tables"));
      const figures = await digests(join(workspace, "figures"));
      assert.ok(tables.size >= 20, `crux run wrote ${tables.size} tables`);
      for (const name of ["method_system.csv", "keypoint_scores.csv", "subq_metrics.csv"]) {
        assert.ok(tables.has(name), `crux run wrote ${name}: ${[...tables.keys()].join(", ")}`);
      }
      assert.ok(!before.runs.some((r) => r.startsWith("subq-core-")), before.runs.join(", "));
      for (const name of NOTEBOOKS) {
        const nb = await executeNotebook(join(root, "notebooks", name), {
          env: { CRUX_EXPERIMENT: experiment, CRUX_CONFIG: config },
          mode: "script",
        });
        const errors = nb.outputs.filter((o) => o.kind === "error").map((o) => o.text);
        assert.deepEqual(errors, [], `${name} (${nb.mode})`);
        const text = nb.outputs.map((o) => o.text).join("\n");
        if (/^0[6-9]/.test(name)) assert.match(text, /\n0 stages ran, \d+ up to date/, name);
        // The notebooks work on any experiment: nothing of the sample in their outputs.
        assert.doesNotMatch(
          text,
          /sample-\d\d|the sample's|hand-assigned/,
          `${name} mentions the sample`,
        );
        const displays = nb.outputs.filter((o) => o.kind === "display").length;
        if (name.startsWith("06")) {
          // The offline nugget creator finds no nugget in the fixture's made-up words; the
          // notebook says so instead of drawing empty tables.
          assert.match(text, /no nugget scores in the workspace/);
        } else assert.ok(displays >= 2, `${name}: ${displays} displays`);
        const after = await snapshot(workspace);
        assert.deepEqual(after.stages, before.stages, `${name} ran a stage`);
        assert.deepEqual(after.runs, before.runs, `${name} made runs the config does not name`);
        assert.equal(after.measures, before.measures, `${name} changed the measure table`);
        const now = await digests(join(workspace, "tables"));
        for (const [file, digest] of tables) {
          assert.equal(now.get(file), digest, `${name} changed tables/${file}`);
        }
        const nowFigures = await digests(join(workspace, "figures"));
        for (const [file, digest] of figures) {
          assert.equal(nowFigures.get(file), digest, `${name} changed figures/${file}`);
        }
      }
    } finally {
      await Deno.remove(workspace, { recursive: true }).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});
