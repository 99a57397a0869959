/**
 * `crux demo`: the main job on the bundled sample, offline.
 *
 * @module
 */
import { parseArgs } from "node:util";
import type { Command } from "../command.ts";
import { runDemo } from "@lib/experiment/mod.ts";

/** The `crux demo` command. */
export const demoCommand: Command = {
  name: "demo",
  summary: "Run the whole chain on the bundled sample, offline, and write tables and figures",
  help: `Usage: deno task demo   (or: deno task crux demo [--experiment NAME])

Runs notebooks/configs/sample-offline.json through the pipeline on datasets/sample with
the offline backends: the workspace (topics, passages, hand-assigned ratings, the required
passage subset P*), BM25, dense, fused and MMR-reranked runs, reports under the oracle
budget and their judging, the measures, nugget evaluation, key point recall, sub-question
coverage by type and the four methods side by side. Stages already done are skipped; the
analyses are rewritten. Prints the context-evaluation, main, nugget, key point,
type-coverage and comparison tables, and writes under outputs/<experiment>/:
  tables/     every table as CSV, Markdown, LaTeX and sortable HTML
  figures/    every figure as SVG, PNG (300 dpi) and Vega-Lite JSON
  index.html  the gallery of every table and figure
No model service is used.

Options:
  --experiment NAME   workspace folder under outputs/ (default: demo)
  -h, --help          show this help
`,
  async run(args, io) {
    const { values } = parseArgs({ args, options: { experiment: { type: "string" } } });
    const result = await runDemo({
      experiment: values.experiment,
      onProgress: (m) => io.err(`demo: ${m}\n`),
    });
    io.out(result.text + "\n");
    io.out(`\nWrote ${result.files.length} files under ${result.dir}\n`);
    io.out(`Gallery: ${result.dir}/index.html\n`);
    return 0;
  },
};
