/** Tables of the sub-question type analyses, private to the `subq` method folder. */
import { CELL_TYPES, type CellColumn } from "./cell_measures.ts";
import { type Table, table } from "@lib/report/mod.ts";
import type { Predictor } from "./preference_measures.ts";

/**
 * The four cells P_t(answered?, retrieved?) per system and type (the paper's first
 * table), #1 and the count: the stored values `value` gives (null where none is stored).
 */
export function cellsTable(
  value: (run: string, column: CellColumn, type: (typeof CELL_TYPES)[number]) => number | null,
  runs: readonly string[],
  notes: string[],
): Table {
  const columns: CellColumn[] = ["ar", "an", "nr", "nn", "a", "n"];
  const rows = runs.flatMap((run) =>
    CELL_TYPES.map((t) => ({
      label: `${run} · ${t}`,
      group: run,
      values: Object.fromEntries(columns.map((c) => [c, value(run, c, t)])),
    }))
  );
  return table({
    caption:
      "Sub-question coverage by type: answered (A) and retrieved (R) shares, % of the type's sub-questions",
    rowHeader: "System · type",
    columns: [
      { key: "ar", label: "A, R", decimals: 1 },
      { key: "an", label: "A, not R", decimals: 1 },
      { key: "nr", label: "not A, R", decimals: 1 },
      { key: "nn", label: "not A, not R", decimals: 1 },
      { key: "a", label: "A (#1)", decimals: 1 },
      { key: "n", label: "n", decimals: 0 },
    ],
    rows,
    unmarkedGroups: runs as string[],
    notes: [
      ...notes,
      "R cells are empty for answers without retrieved chunks (e.g. direct prompting).",
    ],
  });
}

/** The columns of the metrics table: key, label, stored measure, higher is better. */
export const METRIC_COLUMNS: readonly [string, string, string, boolean][] = [
  ["a_core", "#1 core", "subq_answered_core", true],
  ["a_bg", "#1 background", "subq_answered_background", true],
  ["a_fu", "#1 follow-up", "subq_answered_follow-up", false],
  ["r_core", "#2 core", "subq_retrieved_core", true],
  ["m3", "#3", "subq_m3", true],
  ["m4", "#4", "subq_m4", true],
  ["m5", "#5", "subq_m5", true],
  ["m6", "#6", "subq_m6", false],
  ["rating", "rating", "subq_rating", true],
];

/**
 * Metrics #1-#6 and the rating per system with per-metric rankings (the paper's
 * second table): the stored values `value` gives and the stored ranks `rank` gives
 * (null where none is stored).
 */
export function metricsTable(
  runs: readonly string[],
  value: (run: string, column: string) => number | null,
  rank: (run: string, column: string) => number | null,
  notes: string[],
): Table {
  const cols = METRIC_COLUMNS;
  return table({
    caption:
      "Metrics #1-#6 and the type-weighted rating per system; (k) = rank of the system on that metric",
    rowHeader: "System",
    columns: cols.flatMap(([key, label, , hi]) => [
      {
        key,
        label,
        decimals: key === "m6" ? 2 : 3,
        direction: hi ? "higher" as const : "lower" as const,
      },
      { key: `${key}_rank`, label: "(k)", decimals: 0 },
    ]),
    rows: runs.map((run) => ({
      label: run,
      values: Object.fromEntries(
        cols.flatMap(([k]) => [[k, value(run, k)], [`${k}_rank`, rank(run, k)]]),
      ),
    })),
    notes: [
      ...notes,
      "#3 P(A,R)/P(R) and #4 P(not A, not R)/P(not A) over core; #5 chunk share of core when answered minus when not; #6 follow-up start minus the mean of core and background starts (% of the answer). Follow-up coverage and #6 rank lower-is-better.",
    ],
  });
}

/** Caption words for who made a preference set: only a declared human set is called human. */
const ORIGIN = {
  human: "human pairwise preferences",
  model: "model pairwise preferences (not human judgments)",
  "made-up": "made-up pairwise preferences (not human judgments)",
};

/** What a preference table shows of one predictor (run `all-pairs`: the set's pairs). */
export type PreferenceValue = (run: Predictor | "all-pairs", measure: string) => number | null;

/**
 * The row labels of a preference table (the searched weights' label needs all three
 * stored weights; without them the search has no rows), each with its predictor.
 */
export function preferenceRows(value: PreferenceValue): { label: string; run: Predictor }[] {
  const rows: { label: string; run: Predictor }[] = [
    { label: "core-only rating (1, 0, 0)", run: "core-only" },
    { label: "hybrid rating", run: "hybrid" },
    { label: "pairwise judge (both orders)", run: "pairwise" },
  ];
  const w = ["core", "background", "follow-up"].map((t) =>
    value("search-validation", `subq_preference_weight_${t}`)
  );
  if (w.every((x) => x !== null)) {
    const name = `searched weights (${w.join(", ")})`;
    rows.push({ label: `${name}, validation`, run: "search-validation" });
    rows.push({ label: `${name}, held-out`, run: "search-held-out" });
  }
  return rows;
}

/**
 * Preference accuracy of the core-only and hybrid ratings, the pairwise judge and
 * the weight search: the stored values `value` gives (null where none is stored).
 */
export function preferenceTable(
  value: PreferenceValue,
  notes: string[],
  opts: { origin?: "human" | "model" | "made-up" } = {},
): Table {
  const rows = preferenceRows(value).map(({ label, run }) => ({
    label,
    values: {
      acc: value(run, "subq_preference_accuracy"),
      pairs: value(run, "subq_preference_pairs"),
    },
  }));
  const all = value("all-pairs", "subq_preference_pairs");
  const labelled = value("core-only", "subq_preference_pairs");
  return table({
    caption: `Agreement with ${
      opts.origin
        ? ORIGIN[opts.origin]
        : "pairwise preferences of undeclared origin (set subq.preferencesOrigin)"
    }, ties removed`,
    rowHeader: "Predictor",
    columns: [
      { key: "acc", label: "accuracy", direction: "higher" },
      { key: "pairs", label: "pairs", decimals: 0 },
    ],
    rows,
    notes: [
      ...notes,
      ...(all !== null && labelled !== null
        ? [
          `${
            all - labelled
          } of ${all} pairs are ties and left out; equal ratings and judge ties count as misses.`,
        ]
        : ["Equal ratings and judge ties count as misses."]),
    ],
  });
}

/** The win-rate matrix as a table; `winRate` gives the stored win rate of a run over an opponent, or null. */
export function winRateTable(
  winRate: (run: string, opponent: string) => number | null,
  runs: readonly string[],
  notes: string[],
): Table {
  return table({
    caption:
      "Win rate of the row over the column (position-swapped pairwise judge; ties count half)",
    rowHeader: "Run",
    columns: runs.map((r, i) => ({ key: `c${i}`, label: r, direction: "higher" as const })),
    rows: runs.map((r) => ({
      label: r,
      values: Object.fromEntries(
        runs.map((o, i) => [
          `c${i}`,
          winRate(r, o),
        ]),
      ),
    })),
    notes,
  });
}
