/**
 * Private: optional inference columns of the comparison tables — bootstrap
 * confidence intervals of a mean over topics and paired significance tests
 * against a baseline condition (both from `lib/metrics`).
 *
 * @module
 */
import { bootstrapCi, pairedTTest } from "@lib/metrics/mod.ts";
import type { CellValue, TableColumn } from "@lib/report/mod.ts";
import type { ScoreRecord } from "./_condition_scores.ts";
import type { Condition } from "./types.ts";

/** What to add: a CI column and/or a p-value column, for one measure. */
export interface InferenceOptions {
  /** Measure key (e.g. `covY`) and its label (e.g. `Cov(y)`). */
  measure: string;
  label: string;
  /** Add the 95% bootstrap CI of the mean over topics. */
  ci?: boolean;
  /** Baseline condition name: add the paired t-test p-value against it. */
  baseline?: string;
  /** Significance level of the † mark. Default 0.05. */
  alpha?: number;
}

/** Columns, cell values by condition and the notes of the inference columns of one dataset. */
export function inferenceColumns(
  perTopic: readonly ScoreRecord[],
  conditions: readonly Condition[],
  dataset: string,
  group: string | undefined,
  opts: InferenceOptions,
): { columns: TableColumn[]; cells: Map<string, Record<string, CellValue>>; notes: string[] } {
  const alpha = opts.alpha ?? 0.05;
  const byTopic = (c: string) =>
    new Map(
      perTopic.filter((r) =>
        r.condition === c && r.dataset === dataset && r.measure === opts.measure
      ).map((r) => [r.topicId, r.value]),
    );
  const columns: TableColumn[] = [];
  const cells = new Map<string, Record<string, CellValue>>();
  const notes: string[] = [];
  const ciKey = `${dataset}:${opts.measure}:ci`;
  const pKey = `${dataset}:${opts.measure}:p`;
  if (opts.ci) {
    columns.push({ key: ciKey, label: `${opts.label} 95% CI`, group });
    notes.push(
      `95% CI: percentile bootstrap of the mean ${opts.label} over topics (1,000 resamples, seed 1).`,
    );
  }
  const base = opts.baseline ? byTopic(opts.baseline) : undefined;
  const baseLabel = conditions.find((c) => c.name === opts.baseline)?.label ?? opts.baseline;
  if (base) {
    columns.push({ key: pKey, label: `p vs ${baseLabel}`, group, format: formatP });
    notes.push(
      `p vs ${baseLabel}: two-sided paired t-test of ${opts.label} over the topics both have; † = p < ${alpha}.`,
    );
  }
  for (const c of conditions) {
    const own = byTopic(c.name);
    const row: Record<string, CellValue> = {};
    if (opts.ci) {
      const xs = [...own.values()];
      if (xs.length >= 2) {
        const ci = bootstrapCi(xs);
        row[ciKey] = `[${ci.lower.toFixed(3)}, ${ci.upper.toFixed(3)}]`;
      } else row[ciKey] = null;
    }
    if (base && c.name !== opts.baseline) {
      const shared = [...own.keys()].filter((t) => base.has(t));
      if (shared.length >= 2) {
        const a = shared.map((t) => own.get(t)!);
        const b = shared.map((t) => base.get(t)!);
        const same = a.every((x, i) => x === b[i]);
        const p = same ? 1 : pairedTTest(a, b).p;
        row[pKey] = p < alpha ? `${formatP(p)} †` : p;
      } else row[pKey] = null;
    }
    cells.set(c.name, row);
  }
  return { columns, cells, notes };
}

/** A p-value for a table: three decimals, `<0.001` below. */
function formatP(p: number): string {
  return p < 0.001 ? "<0.001" : p.toFixed(3);
}
