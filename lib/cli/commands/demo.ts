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

Builds a workspace from datasets/sample (topics, passages, hand-assigned ratings, the
required passage subset P*), runs BM25 over the pooled sample corpus, evaluates the
top-10 and top-|P*| contexts plus the oracle context P* and an empty context with
Cov, alpha-nDCG, Den (w=0.5, Llama-3.1 tokens), P, nDCG and RPrec, prints the table,
and writes under outputs/<experiment>/:
  tables/   the table as CSV, Markdown and LaTeX
  figures/  coverage/density per condition and per-topic coverage (SVG, PNG, Vega-Lite JSON)
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
    return 0;
  },
};
