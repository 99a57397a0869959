/**
 * Everything a notebook needs to show an experiment, in one call.
 *
 * @module
 */
import { openWorkspace } from "@lib/store/mod.ts";
import type { Condition, CruxData } from "./types.ts";
import type { CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import { loadCruxData } from "./load_crux_data.ts";
import { reportRuns, resolveConditions } from "./resolve_conditions.ts";
import { type HumanLabel, readHumanLabels } from "./human_labels.ts";
import { humanReportLabels } from "./human_report_labels.ts";
import { experimentBackends, experimentPipelines } from "./_experiment_pipelines.ts";

/** What {@linkcode loadExperiment} returns. */
export interface LoadedExperiment {
  data: CruxData;
  /** The config's pipelines that have reports (labelled by run name), then the references. */
  conditions: Condition[];
  /** Human labels: the config's `analysis.human` file, else the workspace's `human` ratings of reports. */
  human: HumanLabel[];
  /** The experiment's output folder (the workspace folder). */
  outDir: string;
}

/**
 * Opens an experiment's workspace read-only, reads the analysis data (judges
 * and backend labels as the config implies), the conditions to compare and
 * any human labels, and closes the workspace again.
 *
 * @param config The experiment config (see `loadExperimentConfig`).
 * @returns Data, conditions, human labels and the output folder.
 * @throws {RangeError} As `loadCruxData` (e.g. before the chain has run).
 * @example
 * ```ts
 * import { loadExperiment, mainTable } from "@lib/analysis/mod.ts";
 * import { loadExperimentConfigWith } from "@lib/pipeline/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * // A config without method sections (those need the registry of lib/methods).
 * const config = await loadExperimentConfigWith("notebooks/configs/sample-grid.json", []);
 * const dir = await Deno.makeTempDir(); // normally config.workspace, filled by `crux run`
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * ws.close();
 * const { data, conditions, outDir } = await loadExperiment({ ...config, workspace: dir });
 * const main = mainTable(data, { conditions }); // save with saveAnalysis(main, outDir)
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadExperiment(config: CruxExperimentConfig): Promise<LoadedExperiment> {
  const ws = await openWorkspace(config.workspace, { readOnly: true });
  try {
    const data = await loadCruxData(ws, {
      passageJudge: config.analysis?.passageJudge,
      reportJudge: config.analysis?.reportJudge,
      backends: experimentBackends(config),
    });
    // Runs with reports, and runs whose reports all failed (their rows stay, blank).
    const present = new Set(reportRuns(data).keys());
    const pipelines = experimentPipelines(config).filter((p) => present.has(p.generation));
    const conditions = resolveConditions(data, { pipelines });
    let human = config.analysis?.human ? await readHumanLabels(config.analysis.human) : [];
    if (!human.length && data.reportJudge !== "human") human = await humanReportLabels(ws);
    return { data, conditions, human, outDir: config.workspace };
  } finally {
    ws.close();
  }
}
