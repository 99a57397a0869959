/**
 * Private: optional inference columns of the comparison tables — bootstrap
 * confidence intervals of a mean over topics and paired significance tests
 * against a baseline condition, as the statistics stage stores them (the
 * columns ask for them and read them; nothing is computed here).
 *
 * @module
 */
import type { CellValue, TableColumn } from "@lib/report/mod.ts";
import type { StatisticKey } from "@lib/store/mod.ts";
import { meanKey, type ScoreRecord, type StoredKey } from "./_condition_scores.ts";
import type { Condition, CruxData } from "./types.ts";
import type { StatisticRequest } from "./compute_statistics.ts";
import { storedStatistic } from "./stored_statistic.ts";

/** The bootstrap settings of the interval column. */
const BOOTSTRAP = { samples: 1000, level: 0.95, seed: 1 };

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
  /** Where each condition's measure is stored, by `meanKey("", condition, measure)`. */
  keys: ReadonlyMap<string, StoredKey>;
  /** The topic set of the per-topic values (`all`, or `all:<dataset>`). */
  topicSet: string;
}

/** Columns, cell values by condition and the notes of the inference columns of one dataset. */
export function inferenceColumns(
  data: Pick<CruxData, "statistics">,
  perTopic: readonly ScoreRecord[],
  conditions: readonly Condition[],
  dataset: string,
  group: string | undefined,
  opts: InferenceOptions,
): {
  columns: TableColumn[];
  cells: Map<string, Record<string, CellValue>>;
  notes: string[];
  statistics: StatisticRequest[];
} {
  const alpha = opts.alpha ?? 0.05;
  const byTopic = (c: string) =>
    new Map(
      perTopic.filter((r) =>
        r.condition === c && r.dataset === dataset && r.measure === opts.measure
      ).sort((a, b) => (a.topicId < b.topicId ? -1 : a.topicId > b.topicId ? 1 : 0))
        .map((r) => [r.topicId, r.value]),
    );
  const ref = (c: string) => opts.keys.get(meanKey("", c, opts.measure));
  const statistics: StatisticRequest[] = [];
  // A statistic over per-topic values: asked of the statistics stage, read from its rows.
  const stored = (key: StatisticKey, x: number[], y?: number[]) => {
    statistics.push({ key, x, ...(y ? { y } : {}) });
    return storedStatistic(data, key).value;
  };
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
  const topicSet = opts.topicSet;
  for (const c of conditions) {
    const own = byTopic(c.name);
    const at = ref(c.name);
    const row: Record<string, CellValue> = {};
    if (opts.ci) {
      const xs = [...own.values()];
      row[ciKey] = null;
      if (at && xs.length >= 2) {
        const key = (statistic: string) => ({
          statistic,
          x: [at],
          topicSet,
          params: BOOTSTRAP,
        });
        const lower = stored(key("bootstrap_ci_lower"), xs);
        const upper = stored(key("bootstrap_ci_upper"), xs);
        if (lower !== null && upper !== null) {
          row[ciKey] = `[${lower.toFixed(3)}, ${upper.toFixed(3)}]`;
        }
      }
    }
    const baseAt = opts.baseline ? ref(opts.baseline) : undefined;
    if (base && c.name !== opts.baseline) {
      const shared = [...own.keys()].filter((t) => base.has(t));
      row[pKey] = null;
      if (at && baseAt && shared.length >= 2) {
        const a = shared.map((t) => own.get(t)!);
        const b = shared.map((t) => base.get(t)!);
        const p = stored({ statistic: "paired_t_p", x: [at], y: [baseAt], topicSet }, a, b);
        if (p !== null) row[pKey] = p < alpha ? `${formatP(p)} †` : p;
      }
    }
    cells.set(c.name, row);
  }
  return { columns, cells, notes, statistics };
}

/** A p-value for a table: three decimals, `<0.001` below. */
function formatP(p: number): string {
  return p < 0.001 ? "<0.001" : p.toFixed(3);
}
