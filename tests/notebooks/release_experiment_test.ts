/**
 * The notebooks work on any experiment: a second experiment is built with
 * `crux run` from CRUX release-layout files (tests/golden/crux/fixtures: 20
 * topics, unrated passages), and notebooks 01-05 run on it headless with no
 * sample-specific text in their outputs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { executeNotebook } from "./_execute.ts";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";

const root = new URL("../../", import.meta.url).pathname;
const fixtures = join(root, "tests", "golden", "crux", "fixtures");
const NOTEBOOKS = [
  "01_dataset.ipynb",
  "02_retrieval_and_context_eval.ipynb",
  "03_generation.ipynb",
  "04_judging.ipynb",
  "05_analysis.ipynb",
];

Deno.test({
  name: "notebooks 01-05 run on an experiment built from release-format files",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const experiment = `nbtest-release-${crypto.randomUUID().slice(0, 8)}`;
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
        retrieve: [{ name: "bm25", k: 50 }],
        analysis: { correlation: { samples: 4, size: 5, depth: 20, seed: 1 } },
      }),
    );
    try {
      const io = memoryIo();
      const code = await main(
        ["run", "--config", config, "--experiment", experiment],
        io,
        COMMANDS,
      );
      assert.equal(code, 0, io.stderr());
      assert.match(io.stderr(), /\[select\] select: judge "import:judgments\.jsonl"/);
      for (const name of NOTEBOOKS) {
        const nb = await executeNotebook(join(root, "notebooks", name), {
          env: { CRUX_EXPERIMENT: experiment, CRUX_CONFIG: config },
          complete: (nb) => nb.outputs.filter((o) => o.kind === "display").length >= 2,
        });
        const errors = nb.outputs.filter((o) => o.kind === "error").map((o) => o.text);
        assert.deepEqual(errors, [], `${name} (${nb.mode})`);
        const text = nb.outputs.map((o) => o.text).join("\n");
        assert.doesNotMatch(
          text,
          /sample-\d\d|the sample's|hand-assigned/,
          `${name} mentions the sample`,
        );
        const displays = nb.outputs.filter((o) => o.kind === "display").length;
        assert.ok(displays >= 2, `${name}: ${displays} displays`);
      }
    } finally {
      await Deno.remove(join(root, "outputs", experiment), { recursive: true }).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});
