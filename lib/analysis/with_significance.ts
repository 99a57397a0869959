/**
 * Significance columns for any comparison table: bootstrap intervals and the
 * rows each row beats by a paired test, Holm-corrected across the pairs shown.
 *
 * @module
 */
import {
  runSignificance,
  type RunSignificanceOptions,
  type RunTopicValue,
} from "@lib/metrics/mod.ts";
import { type Table, table, type TableColumn, type TableRow } from "@lib/report/mod.ts";

/** Options of {@linkcode withSignificance}. */
export interface WithSignificanceOptions extends RunSignificanceOptions {
  /** The run of a row (the `run` of its per-topic values). Default: the row label. */
  rowRun?: (row: TableRow) => string;
  /** Add the interval column. Default true. */
  intervals?: boolean;
  /** Add the marks column. Default true. */
  marks?: boolean;
}

/**
 * Returns a copy of `t` where each column named in `values` is followed by
 * its 95% percentile bootstrap interval over topics (`<key>:ci`) and the
 * numbers of the rows it beats (`<key>:sig`, "> rows"): a paired
 * randomization test on the topics both rows share, Holm-corrected across
 * every pair of rows of that column, significant at `alpha`. Only the table's
 * rows are compared, so the correction covers exactly the pairs shown. Seeded:
 * the same input and seed give the same marks.
 *
 * @param t The table (not modified).
 * @param values Per column key, the per-topic values of each row's run.
 * @param opts `rowRun`, `intervals`, `marks`, and the test settings (trials, samples, level, alpha, seed).
 * @returns The table with the extra columns and a note on the tests.
 * @throws {RangeError} When a key is not a column of `t`.
 * @example
 * ```ts
 * import { withSignificance } from "@lib/analysis/mod.ts";
 * import { table } from "@lib/report/mod.ts";
 * const t = table({ columns: [{ key: "cov", label: "Cov", direction: "higher" }],
 *   rows: [{ label: "a", values: { cov: 0.6 } }, { label: "b", values: { cov: 0.4 } }] });
 * const v = (run: string, topicId: string, value: number) => ({ run, topicId, value });
 * withSignificance(t, { cov: [v("a", "t1", 0.5), v("a", "t2", 0.7), v("b", "t1", 0.4), v("b", "t2", 0.4)] });
 * ```
 */
export function withSignificance(
  t: Table,
  values: Readonly<Record<string, readonly RunTopicValue[]>>,
  opts: WithSignificanceOptions = {},
): Table {
  const runOf = opts.rowRun ?? ((r: TableRow) => r.label);
  const runs = t.rows.map(runOf);
  const number = new Map(runs.map((r, i) => [r, i + 1]));
  const columns: TableColumn[] = [];
  const rows = t.rows.map((r) => ({ ...r, values: { ...r.values } }));
  for (const key of Object.keys(values)) {
    if (!t.columns.some((c) => c.key === key)) {
      throw new RangeError(
        `Cannot add significance to column "${key}": the table has ${
          t.columns.map((c) => c.key).join(", ")
        }`,
      );
    }
  }
  for (const c of t.columns) {
    columns.push(c);
    const v = values[c.key];
    if (!v) continue;
    const shown = new Set(runs);
    const s = runSignificance(v.filter((x) => shown.has(x.run)), opts);
    if (opts.intervals ?? true) {
      columns.push({ key: `${c.key}:ci`, label: "95% CI", group: c.group ?? c.label });
    }
    if (opts.marks ?? true) {
      columns.push({ key: `${c.key}:sig`, label: "> rows", group: c.group ?? c.label });
    }
    rows.forEach((row, i) => {
      const run = runs[i];
      const ci = s.intervals.find((x) => x.run === run);
      if (opts.intervals ?? true) {
        row.values[`${c.key}:ci`] = ci ? `[${ci.lower.toFixed(3)}, ${ci.upper.toFixed(3)}]` : null;
      }
      if (opts.marks ?? true) {
        row.values[`${c.key}:sig`] = s.pairs.filter((p) =>
          p.significant &&
          ((p.a === run && p.meanDifference > 0) || (p.b === run && p.meanDifference < 0))
        ).map((p) => number.get(p.a === run ? p.b : p.a)!).sort((x, y) => x - y).join(",");
      }
    });
  }
  const note =
    `95% CI: percentile bootstrap over topics (seed ${opts.seed ?? 1}); "> rows": row numbers ` +
    `(1 = first row) this row beats by a paired randomization test, Holm-corrected across the ` +
    `pairs of rows shown, at ${opts.alpha ?? 0.05}`;
  return table({ ...t, columns, rows, notes: [...(t.notes ?? []), note] });
}
