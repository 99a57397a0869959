/**
 * The demo: the workbench's main job on the bundled sample, offline.
 *
 * @module
 */
import { join } from "node:path";
import { tableText } from "@lib/report/mod.ts";
import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
import { experimentDir, repoRoot } from "./paths.ts";
import { loadExperimentConfig } from "./load_experiment_config.ts";
import { runCruxExperiment } from "./run_crux_experiment.ts";

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
 * Runs the demo: the sample experiment config (offline backends) through the
 * pipeline — import, construction, selection of P*, retrieval and reranking,
 * generation under the oracle budget, judging, measures, the evaluation
 * methods the config names, and every analysis — writing the tables (CSV,
 * Markdown, LaTeX) and figures (SVG, PNG, Vega-Lite JSON) under `outputs/demo/`.
 *
 * @param opts See {@linkcode DemoOptions}.
 * @returns The output folder, the table as text and the files written.
 * @example
 * ```ts ignore
 * // Not run as a test: the whole pipeline on the sample takes minutes.
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
  const path = opts.config ?? join(repoRoot(), "notebooks", "configs", "sample-offline.json");
  const config = {
    ...(await loadExperimentConfig(path, { root: repoRoot(), experiment })),
    workspace: dir,
  };
  // Stages that are up to date are skipped; the analyses always run so the
  // tables and figures are (re)written and can be printed.
  const run = await runCruxExperiment(config, {
    from: "analyze",
    onEvent: (e) => say(e.message),
  });
  const files: string[] = [];
  for (const saved of run.analyses?.saved ?? []) {
    if (saved.table) files.push(saved.table.csv, saved.table.md, saved.table.tex);
    if (saved.figure) files.push(saved.figure.svg, saved.figure.png, saved.figure.spec);
  }
  // Each method's tables in registry order (CRUX's first), when the analyses made them.
  const shown = METHOD_REGISTRY.flatMap((m) => m.tables);
  const text = shown.flatMap((name) => {
    const table = run.analyses?.analyses.find((a) => a.name === name)?.table;
    return table ? [tableText(table)] : [];
  }).join("\n\n");
  const gallery = run.analyses?.saved.findLast((a) => a.gallery)?.gallery;
  say(`wrote ${files.length} files under ${dir}${gallery ? `; gallery: ${gallery}` : ""}`);
  return { dir, text, files };
}
