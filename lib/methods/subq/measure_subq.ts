/**
 * The work of the `measure:subq` stage: the method's scores and coverage cells
 * of every run, from the stored coverage judgments, into `measures`.
 *
 * @module
 */
import type { SubquestionType } from "@lib/metrics/mod.ts";
import {
  deleteMeasures,
  readSubqPairwiseVerdicts,
  readSubqPreferenceRows,
  type Workspace,
} from "@lib/store/mod.ts";
import { storeSubqMeasures, subqMeasureRows, workspaceCoverageLines } from "@lib/subq/mod.ts";
import { subqCells } from "./cell_measures.ts";
import { subqPreferences } from "./preference_measures.ts";
import { subqWinRates } from "./win_rate_measures.ts";

/** What {@linkcode measureSubq} stored. */
export interface SubqMeasured {
  /** Rows written. */
  rows: number;
  /** Runs with judgments. */
  runs: number;
  /** (answer, sub-question) pairs without a usable judgment, left out. */
  missing: number;
}

/**
 * Replaces the method's rows of `source` and `judge` with the scores of
 * `subqMeasureRows` (per run and topic, and per run) and the coverage cells of
 * `subqCells` (per run) of the stored judgments of `runs`, its preference rows
 * with the evaluation of every stored preference set (`subqPreferences`), and its
 * win-rate rows with those of every stored pairwise verdict (`subqWinRates`).
 *
 * @param ws The workspace (after the coverage judgments, the pairwise comparison and the
 *   preference evaluation).
 * @param opts Runs, the coverage judge, the sub-questions' source, the rating's weights,
 *   the weight search's validation share and seed.
 * @returns Rows written, runs and left-out pairs.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureSubq } from "@lib/methods/subq/measure_subq.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const r = await measureSubq(ws, { runs: [], judge: "lexical coverage (offline)", source: "decompose" });
 * assert.equal(r.rows, 0);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function measureSubq(
  ws: Workspace,
  opts: {
    runs: readonly string[];
    judge: string;
    source: string;
    weights?: Readonly<Record<SubquestionType, number>>;
    /** Validation share and seed of the preference sets' weight search. Defaults 0.5 and 42. */
    validation?: number;
    seed?: number;
  },
): Promise<SubqMeasured> {
  const { judge, source } = opts;
  const { lines, missing } = await workspaceCoverageLines(ws, { runs: opts.runs, judge, source });
  // The scores, and the shares and counts of the coverage cells per run and type.
  const rows = [
    ...subqMeasureRows(lines, { judge, source, weights: opts.weights }),
    ...subqCells.rows(lines, { judge, source }),
  ];
  // The preference evaluation of every stored set replaces that of the last run.
  await deleteMeasures(ws, { method: "subq", sourcePrefix: subqPreferences.prefix });
  const preferences = subqPreferences.rows(await readSubqPreferenceRows(ws), {
    judge,
    weights: opts.weights,
    validation: opts.validation,
    seed: opts.seed,
  });
  // The win rates of every stored pairwise verdict replace those of the last run.
  await deleteMeasures(ws, { method: "subq", source: subqWinRates.source });
  const wins = subqWinRates.rows(await readSubqPairwiseVerdicts(ws));
  await storeSubqMeasures(ws, [...rows, ...preferences, ...wins], { judge, source });
  return {
    rows: rows.length + preferences.length + wins.length,
    runs: new Set(lines.map((l) => l.system)).size,
    missing,
  };
}
