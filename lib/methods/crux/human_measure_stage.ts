/**
 * The CRUX chain's human coverage stage, `measure:human`: the human labels of
 * report coverage - the config's `analysis.human` file, else the workspace's
 * `human` ratings of reports when another judge rated the reports - turned
 * into coverage per (topic, condition) and each condition's mean over a
 * complete topic set, stored as measures (source `human`) for the per-topic
 * coverage view to read.
 *
 * @module
 */
import { deleteMeasures, readRatingCounts, writeMeasures } from "@lib/store/mod.ts";
import {
  humanCoverageRows,
  humanReportLabels,
  loadCruxData,
  readHumanLabels,
} from "@lib/analysis/mod.ts";
import { datasetMeanRows } from "@lib/metrics/mod.ts";
import { fileSha256, type StageSpec } from "@lib/pipeline/mod.ts";
import type { CruxChainEnv } from "./chain_env.ts";

/** The judge name of the rows from a labels file (the workspace's own ratings are `human`'s). */
const FILE_JUDGE = "human-labels";

/**
 * The stage storing the human coverage of reports.
 *
 * @param env The chain's shared part (see `cruxChainEnv`).
 * @param judged The runs whose reports are judged (the stage runs after their judging).
 * @returns The `measure:human` stage.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxChainEnv } from "./chain_env.ts";
 * import { humanMeasureStage } from "./human_measure_stage.ts";
 * const env = cruxChainEnv({ name: "x", workspace: "outputs/x" }, {
 *   backends: () => () => Promise.resolve({}),
 * });
 * const m = await humanMeasureStage(env, ["direct"]);
 * assert.deepEqual([m.id, m.stage, m.deps], ["measure:human", "measure", ["select", "judge:direct"]]);
 * ```
 */
export async function humanMeasureStage(
  env: CruxChainEnv,
  judged: readonly string[],
): Promise<StageSpec> {
  const { config, settings, tau } = env;
  const file = config.analysis?.human;
  const taus = [...new Set([tau, ...settings.taus])];
  return {
    id: "measure:human",
    stage: "measure",
    version: 2,
    params: { ...(file ? { file, digest: await inputDigest(file, config.workspace) } : {}), taus },
    // The labelled reports' topics and A(tau) come from the selection; the
    // workspace's `human` ratings count only where another judge rated the reports.
    deps: ["select", ...judged.map((run) => `judge:${run}`)],
    clear: async (ws) => {
      await deleteMeasures(ws, { source: "human" });
    },
    run: async (ws) => {
      // A(tau) comes from the passage ratings: none stored (e.g. every rating call
      // failed), nothing to measure yet.
      if (!(await readRatingCounts(ws)).some((c) => c.itemKind === "passage")) {
        return "nothing to do: no passage ratings stored yet (re-run to retry them)";
      }
      const data = await loadCruxData(ws, {
        passageJudge: config.analysis?.passageJudge,
        reportJudge: config.analysis?.reportJudge,
      });
      const labels = file
        ? await readHumanLabels(file)
        : data.reportJudge !== "human"
        ? await humanReportLabels(ws)
        : [];
      if (!labels.length) return "no human labels of reports";
      const judge = file ? FILE_JUDGE : "human";
      const rows = humanCoverageRows(data, labels, { judge, taus, onNote: env.note("measure") });
      // Beside each mean, each dataset's mean when the experiment holds several.
      rows.push(
        ...datasetMeanRows(rows, new Map(data.topics.map((t) => [t.topicId, t.dataset]))),
      );
      await writeMeasures(ws, rows);
      return `${rows.length} coverage values of ${judge}'s ${labels.length} labels`;
    },
  };
}

/** The labels file's digest, so an edited file re-runs the stage. */
function inputDigest(path: string, workspace: string): Promise<string> {
  return fileSha256(path, workspace).catch(() => "unreadable");
}
