/**
 * The demo: the workbench's main job on the bundled sample, offline.
 *
 * @module
 */
import { join } from "node:path";
import { saveFigure, saveTable, tableText } from "@lib/report/mod.ts";
import { openExperiment } from "./open_experiment.ts";
import { retrieveBm25 } from "./retrieve_bm25.ts";
import { evaluateContexts } from "./context_evaluation.ts";
import { contextReport } from "./context_report.ts";
import { experimentDir, repoRoot } from "./paths.ts";
import { loadExperimentConfig, runCruxExperiment } from "@lib/analysis/mod.ts";

/** Options of {@linkcode runDemo}. */
export interface DemoOptions {
  /** Experiment name (folder under `outputs/`). Default `demo`. */
  experiment?: string;
  /** Workspace/output folder. Default `outputs/<experiment>`. */
  dir?: string;
  /** Receives one line per stage. */
  onProgress?: (message: string) => void;
  /** Experiment config of the chain. Default `notebooks/configs/sample-offline.json`. */
  config?: string;
  /** Also run the chain (generation, judging, analyses) after the context evaluation. Default true. */
  chain?: boolean;
}

/** What the demo produced. */
export interface DemoResult {
  dir: string;
  /** The context table (and the main table of the chain) as terminal text. */
  text: string;
  /** Every file written. */
  files: string[];
}

/**
 * Runs the demo: builds a workspace from the sample (topics, passages, hand
 * ratings, the required subset P*), runs BM25 over the pooled corpus, evaluates
 * the top-10 and top-|P*| contexts and the oracle and empty references with
 * Cov, alpha-nDCG, Den, P, nDCG and RPrec, and writes the table (CSV, Markdown,
 * LaTeX) and figures (SVG, PNG, Vega-Lite JSON) under `outputs/demo/`.
 *
 * @param opts See {@linkcode DemoOptions}.
 * @returns The output folder, the table as text and the files written.
 * @example
 * ```ts
 * import { runDemo } from "@lib/experiment/mod.ts";
 * const dir = await Deno.makeTempDir(); // default: outputs/demo
 * const { text } = await runDemo({ dir, onProgress: console.error });
 * console.log(text);
 * ```
 */
export async function runDemo(opts: DemoOptions = {}): Promise<DemoResult> {
  const experiment = opts.experiment ?? "demo";
  const dir = opts.dir ?? experimentDir(experiment);
  const say = opts.onProgress ?? (() => {});
  const ws = await openExperiment(experiment, { dir, onNote: say });
  const files: string[] = [];
  try {
    const bm25 = await retrieveBm25(ws, { k: 100 });
    say(`BM25 run "${bm25.run}": ${bm25.rows} rows${bm25.reused ? " (reused)" : ""}`);
    const result = await evaluateContexts(ws, { runs: ["bm25"], cutoffs: [10, "oracle"] });
    const { table, figures } = contextReport(result, {
      notes: ["Judgments: the sample's hand-assigned ratings (human)."],
    });
    const saved = await saveTable(table, join(dir, "tables", "context_evaluation"));
    files.push(...Object.values(saved));
    for (const f of figures) {
      const paths = await saveFigure(f.spec, join(dir, "figures", f.name));
      files.push(paths.svg, paths.png, paths.spec);
    }
    let text = tableText(table);
    ws.close();
    if (opts.chain ?? true) {
      const path = opts.config ?? join(repoRoot(), "notebooks", "configs", "sample-offline.json");
      const config = {
        ...(await loadExperimentConfig(path, { root: repoRoot() })),
        workspace: dir,
      };
      // Stages that are up to date are skipped; the analyses always run so the
      // tables and figures are (re)written and the main table can be printed.
      const run = await runCruxExperiment(config, {
        from: "analyze",
        onEvent: (e) => say(`${e.stage}: ${e.message}`),
      });
      for (const saved of run.analyses?.saved ?? []) {
        if (saved.table) files.push(saved.table.csv, saved.table.md, saved.table.tex);
        if (saved.figure) files.push(saved.figure.svg, saved.figure.png, saved.figure.spec);
      }
      const main = run.analyses?.analyses.find((a) => a.name === "main_table");
      if (main?.table) text += "\n\n" + tableText(main.table);
    }
    say(`wrote ${files.length} files under ${dir}`);
    return { dir, text, files };
  } finally {
    ws.close();
  }
}
