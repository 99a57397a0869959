/**
 * The CRUX chain's human-study stage, `measure:human-agreement`: the
 * annotators' label files the config's `analysis.humanStudy` names, and the
 * report judge's ratings of the labelled run, turned into the study's stored
 * rows (source `human-study`): per-report coverage per annotator and of the
 * judge, the kappas, Krippendorff's alpha, confusion counts and the judge's
 * agreement with the majority. The human agreement tables are views of them.
 *
 * @module
 */
import { readHumanAnnotations } from "@lib/formats/mod.ts";
import {
  defaultReportJudge,
  deleteMeasures,
  type Workspace,
  writeMeasures,
} from "@lib/store/mod.ts";
import { HUMAN_STUDY_SOURCE, humanAgreementJudge, humanAgreementRows } from "@lib/analysis/mod.ts";
import { fileSha256, type StageSpec } from "@lib/pipeline/mod.ts";
import type { CruxChainEnv } from "./chain_env.ts";

/**
 * The stage storing a human study's agreement; when the config names no study,
 * a stage that only clears an earlier study's rows.
 *
 * @param env The chain's shared part (see `cruxChainEnv`).
 * @param judged The runs whose reports are judged (the stage runs after the labelled run's judging).
 * @returns The `measure:human-agreement` stage (in a list, as the chain splices it).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxChainEnv } from "./chain_env.ts";
 * import { humanAgreementStage } from "./human_agreement_stage.ts";
 * const env = cruxChainEnv({ name: "x", workspace: "outputs/x" }, {
 *   backends: () => () => Promise.resolve({}),
 * });
 * const [stage] = await humanAgreementStage(env, ["direct"]);
 * assert.deepEqual([stage.id, stage.params, stage.deps], ["measure:human-agreement", { study: null }, []]);
 * ```
 */
export async function humanAgreementStage(
  env: CruxChainEnv,
  judged: readonly string[],
): Promise<StageSpec[]> {
  const { config, settings } = env;
  const study = config.analysis?.humanStudy;
  const clear = async (ws: Workspace) => {
    await deleteMeasures(ws, { source: HUMAN_STUDY_SOURCE });
  };
  // No study in the config: the stage only clears the rows an earlier study left,
  // so no table shows a study the config no longer names.
  if (!study) {
    return [{
      id: "measure:human-agreement",
      stage: "measure",
      version: 1,
      params: { study: null },
      deps: [],
      clear,
      run: () => Promise.resolve("no human study in the config; none stored"),
    }];
  }
  const run = study.run ?? "oracle-result";
  const threshold = settings.tau;
  const reportJudge = config.analysis?.reportJudge;
  return [{
    id: "measure:human-agreement",
    stage: "measure",
    version: 1,
    params: {
      files: await Promise.all(
        study.files.map(async (file) => ({
          file,
          digest: await fileSha256(file, config.workspace).catch(() => "unreadable"),
        })),
      ),
      run,
      threshold,
      ...(reportJudge ? { reportJudge } : {}),
    },
    // The judge's ratings of the labelled run's reports.
    deps: judged.includes(run) ? [`judge:${run}`] : [],
    clear,
    run: async (ws) => {
      const files = await Promise.all(study.files.map((f) => readHumanAnnotations(f)));
      const judge = reportJudge ?? await defaultReportJudge(ws);
      const rated = judge ? await humanAgreementJudge(ws, { run, judge }) : undefined;
      if (!rated?.judgments.length) {
        env.note("measure")(
          `human study: no judge rated the reports of run ${run}; annotator agreement only`,
        );
      }
      const rows = humanAgreementRows(files, {
        run,
        threshold,
        ...(rated?.judgments.length ? { judge: rated.judgments, judgeName: rated.judge } : {}),
      });
      await writeMeasures(ws, rows);
      return `${rows.length} human-study values of ${files.length} annotators on run ${run}`;
    },
  }];
}
