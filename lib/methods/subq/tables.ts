/** Tables of the sub-question type analyses, private to the `subq` method folder. */
import { CELL_TYPES, type CellColumn } from "./cell_measures.ts";
import { type Table, table } from "@lib/report/mod.ts";
import type { SystemScores, WinRateCell } from "@lib/subq/mod.ts";
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

/** Rank of each system per metric (1 = best; higher is better except #4 and #6), ties share the best rank. */
function ranks(raw: (number | null)[], higher: boolean): (number | null)[] {
  const values = raw.map((v) => (v === null ? null : Math.round(v * 1e9) / 1e9));
  return values.map((v) =>
    v === null ? null : 1 + values.filter((w) => w !== null && (higher ? w > v : w < v)).length
  );
}

/** Metrics #1-#6 and the rating per system with per-metric rankings (the paper's second table). */
export function metricsTable(scores: ReadonlyMap<string, SystemScores>, notes: string[]): Table {
  const runs = [...scores.keys()];
  const cols: [string, string, (s: SystemScores) => number | null, boolean][] = [
    ["a_core", "#1 core", (s) => s.answered.core, true],
    ["a_bg", "#1 background", (s) => s.answered.background, true],
    ["a_fu", "#1 follow-up", (s) => s.answered["follow-up"], false],
    ["r_core", "#2 core", (s) => s.retrieved?.core ?? null, true],
    ["m3", "#3", (s) => s.metrics.m3, true],
    ["m4", "#4", (s) => s.metrics.m4, true],
    ["m5", "#5", (s) => s.metrics.m5, true],
    ["m6", "#6", (s) => s.metrics.m6, false],
    ["rating", "rating", (s) => s.rating, true],
  ];
  const rank = new Map(
    cols.map(([k, , f, hi]) => [k, ranks(runs.map((r) => f(scores.get(r)!)), hi)]),
  );
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
    rows: runs.map((run, i) => ({
      label: run,
      values: Object.fromEntries(
        cols.flatMap(([k, , f]) => [[k, f(scores.get(run)!)], [`${k}_rank`, rank.get(k)![i]]]),
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

/** The win-rate matrix as a table. */
export function winRateTable(
  cells: readonly WinRateCell[],
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
          cells.find((c) => c.run === r && c.opponent === o)?.winRate ?? null,
        ]),
      ),
    })),
    notes,
  });
}
