/**
 * The preference evaluation of the sub-question method as measure rows: per
 * stored preference set, the accuracy of each predictor over its labelled pairs,
 * the pairs counted and the searched weights, which the measure stage stores and
 * the preference table shows.
 *
 * @module
 */
import type { SubqPreferenceRow } from "@lib/store/mod.ts";
import { measureRow } from "@lib/store/mod.ts";
import {
  type JudgedPreference,
  type PreferenceResults,
  preferenceResults,
  type TypeWeights,
} from "@lib/subq/mod.ts";
import type { MeasureRow } from "@lib/types/mod.ts";
import { formatTopicSet } from "@lib/metrics/mod.ts";

/** The predictors, as the runs of their rows, in table order. */
export const PREDICTORS = [
  "core-only",
  "hybrid",
  "pairwise",
  "search-validation",
  "search-held-out",
] as const;

/** A predictor of the preference table. */
export type Predictor = (typeof PREDICTORS)[number];

/** The source prefix of every preference row (`preferences:<set>`). */
const PREFIX = "preferences:";

/**
 * Names and rows of the preference evaluation. The rows of a set (method
 * `subq`, source `preferences:<set>`, topic `all`) are, per predictor (run
 * `core-only`, `hybrid`, `pairwise`, `search-validation`, `search-held-out`),
 * `subq_preference_accuracy` (the share of its pairs it orders as labelled; no
 * row when it has none) and `subq_preference_pairs` (labelled pairs it is scored
 * on); run `search-validation` also has the searched weights
 * `subq_preference_weight_<type>`, and run `all-pairs` the set's pairs, ties
 * included (`subq_preference_pairs`). The judge is the coverage judge, but the
 * pairwise judge for run `pairwise`; the topic set `scored(n=<pairs>)` counts the
 * pairs a value is over.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { subqPreferences } from "@lib/methods/subq/preference_measures.ts";
 * const items = (core: boolean) => JSON.stringify([{ type: "core", answered: core }]);
 * const rows = subqPreferences.rows([
 *   { source: "p.jsonl", human: "A", itemsA: items(true), itemsB: items(false), pairwise: "B", pairwiseJudge: "m" },
 * ], { judge: "j" });
 * const value = (run: string, m: string) => rows.find((r) => r.run === run && r.measure === m)?.value;
 * assert.equal(value("core-only", "subq_preference_accuracy"), 1);
 * assert.equal(value("pairwise", "subq_preference_accuracy"), 0);
 * assert.equal(value("all-pairs", "subq_preference_pairs"), 1);
 * ```
 */
export const subqPreferences = {
  /** The source of a set's rows. */
  source(set: string): string {
    return `${PREFIX}${set}`;
  },
  /** The prefix of every set's source. */
  prefix: PREFIX,
  /** The judged pairs of one set's stored rows, in stored order. */
  pairs(rows: readonly SubqPreferenceRow[]): JudgedPreference[] {
    const items = (s: string) =>
      (JSON.parse(s) as { type: "core"; answered: boolean }[]).map((x) => ({
        ...x,
        retrieved: false,
      }));
    return rows.map((p) => ({
      a: items(p.itemsA),
      b: items(p.itemsB),
      human: p.human,
      pairwise: p.pairwise as "A",
    }));
  },
  /** The rows of every stored set (see above). */
  rows(
    stored: readonly SubqPreferenceRow[],
    opts: { judge: string; weights?: TypeWeights; validation?: number; seed?: number },
  ): MeasureRow[] {
    const out: MeasureRow[] = [];
    for (const set of [...new Set(stored.map((p) => p.source))]) {
      const mine = stored.filter((p) => p.source === set);
      const r = preferenceResults(subqPreferences.pairs(mine), opts);
      // Each value is over the pairs its predictor is scored on (`scored(n=<pairs>)`).
      const add = (run: string, measure: string, value: number | null, n: number) => {
        if (value === null || !Number.isFinite(value)) return;
        out.push(measureRow({
          run,
          topicId: "all",
          measure,
          method: "subq",
          judge: run === "pairwise" ? mine[0].pairwiseJudge : opts.judge,
          source: subqPreferences.source(set),
          value,
          topics: n,
          topicSet: formatTopicSet({ kind: "scored", n }),
        }));
      };
      for (const [run, acc, pairs] of scored(r)) {
        add(run, "subq_preference_accuracy", acc, pairs);
        add(run, "subq_preference_pairs", pairs, pairs);
      }
      if (r.search) {
        for (const [type, w] of Object.entries(r.search.weights)) {
          add("search-validation", `subq_preference_weight_${type}`, w, r.search.validationPairs);
        }
      }
      add("all-pairs", "subq_preference_pairs", r.pairs, r.pairs);
    }
    return out;
  },
};

/** Each predictor's accuracy and pairs. */
function scored(r: PreferenceResults): [Predictor, number | null, number][] {
  const rows: [Predictor, number | null, number][] = [
    ["core-only", r.coreOnly, r.labelled],
    ["hybrid", r.hybrid, r.labelled],
    ["pairwise", r.pairwise, r.labelled],
  ];
  if (r.search) {
    rows.push(["search-validation", r.search.validationAccuracy, r.search.validationPairs]);
    rows.push(["search-held-out", r.search.testAccuracy, r.search.testPairs]);
  }
  return rows;
}
