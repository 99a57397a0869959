/**
 * The context-evaluation analyses of an experiment: the retrieval contexts of
 * the config's context runs at its depths, with the oracle and empty
 * references, as the analyze stage and notebook 02 show them.
 *
 * @module
 */
import { cellTopicSets } from "./cell_topic_sets.ts";
import { runPalette } from "./run_palette.ts";
import { type CruxExperimentConfig, cruxSettings } from "@lib/pipeline/mod.ts";
import { defaultReportJudge, passageJudge, type Workspace } from "@lib/store/mod.ts";
import { evaluateContexts } from "./context_evaluation.ts";
import { contextReport } from "./context_report.ts";
import type { Analysis } from "./types.ts";

/** The context runs and depths of a config: `analysis.contexts`, else the first run at 10 and |P*|. */
export function contextSettings(
  config: CruxExperimentConfig,
): { runs: string[]; cutoffs: (number | "oracle")[] } {
  return cruxSettings(config).evaluation;
}

/**
 * Evaluates the config's retrieval contexts (the evaluator of `crux eval` and
 * `crux measure`) and returns the table `context_evaluation` and its figures
 * (`context_per_topic_coverage`, ...).
 *
 * @param ws The workspace (after the retrieve and rerank stages).
 * @param config The checked experiment config (`analysis.contexts`, `analysis.tau`).
 * @param opts `judge` of the passage ratings. Default: the analyses' rule (the config's
 *   `analysis.passageJudge`, the only one, or the report judge when it rated passages).
 * @returns The analyses, for `saveAnalysis`.
 * @throws {RangeError} When no passage judge can be chosen.
 * @example
 * ```ts
 * import { contextAnalyses } from "@lib/analysis/mod.ts";
 * import { loadExperimentConfigWith } from "@lib/pipeline/mod.ts";
 * import assert from "node:assert/strict";
 * import { retrieveRun, selectRequired } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * // A config without method sections (those need the registry of lib/methods).
 * const config = await loadExperimentConfigWith("notebooks/configs/sample-grid.json", []);
 * const dir = await Deno.makeTempDir(); // normally config.workspace
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // the select and retrieve stages, in short
 * await ws.upsert("runs", await retrieveRun(ws, { name: "bm25", k: 100 }));
 * assert.equal((await contextAnalyses(ws, config))[0].name, "context_evaluation");
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function contextAnalyses(
  ws: Workspace,
  config: CruxExperimentConfig,
  opts: { judge?: string } = {},
): Promise<Analysis[]> {
  const judge = opts.judge ?? await passageJudge(
    ws,
    `analyse workspace "${ws.dir}"`,
    config.analysis?.passageJudge,
    { prefer: config.analysis?.reportJudge ?? await defaultReportJudge(ws) },
  );
  const { runs, cutoffs } = contextSettings(config);
  const contexts = await evaluateContexts(ws, { runs, cutoffs, tau: config.analysis?.tau, judge });
  const report = contextReport(contexts, {
    dataset: config.name,
    // What the evaluation left out (topics, measures) is said in the table.
    notes: [
      `Passage ratings by judge "${judge}".`,
      ...contexts.skipped,
      ...(contexts.computed.length
        ? [
          `Not stored by the measure step (blank; run the measure stage): ${
            contexts.computed.join(", ")
          }.`,
        ]
        : []),
    ],
    palette: await runPalette(ws),
  });
  // Each cell key names its stored row's topic set.
  const withTopicSets = await cellTopicSets(ws);
  return [
    withTopicSets({
      name: "context_evaluation",
      data: contexts.means,
      table: report.table,
      cells: contexts.cells,
    }),
    ...report.figures.map((f) => ({
      name: f.name === "per_topic_coverage" ? "context_per_topic_coverage" : f.name,
      data: contexts.perTopic,
      figure: f.spec,
    })),
  ];
}
