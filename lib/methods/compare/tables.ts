/**
 * Tables of the method comparison: the system table with significance
 * columns, the correlation table and the disagreement list.
 *
 * @module
 */
import type { MethodComparison, MethodScore } from "@lib/metrics/mod.ts";
import type { PresentMethod } from "@lib/pipeline/mod.ts";
import { NOT_STORED } from "@lib/analysis/mod.ts";
import type { StoredSignificance } from "./significance_statistics.ts";
import { naturalCompare, type Table, table, type TableColumn } from "@lib/report/mod.ts";

const REFERENCE = new Set(["oracle-context", "oracle-result"]);
const f3 = (v: number) => (Number.isFinite(v) ? v : null);

/**
 * One row per run, a headline column per method (best bold), and the stored
 * intervals and significance marks (blank when not stored).
 */
export function systemTable(
  c: MethodComparison,
  methods: readonly PresentMethod[],
  sig: ReadonlyMap<string, StoredSignificance> | undefined,
  notes: string[],
): Table {
  const columns: TableColumn[] = [{ key: "topics", label: "Topics", decimals: 0 }];
  for (const m of methods) {
    columns.push({
      key: m.method,
      label: m.label,
      direction: m.higherIsBetter ? "higher" : "lower",
      group: m.method,
    });
    if (sig) {
      columns.push({ key: `${m.method}:ci`, label: "95% CI", group: m.method });
      columns.push({ key: `${m.method}:sig`, label: "> rows", group: m.method });
    }
  }
  const index = new Map(c.runs.map((r, i) => [r, i + 1]));
  const rows = c.system.map((s) => {
    const values: Record<string, number | string | null> = { topics: s.topics };
    for (const m of methods) {
      values[m.method] = s.values[m.method];
      const st = sig?.get(m.method);
      if (!st) continue;
      const ci = st.intervals.find((i) => i.run === s.run);
      values[`${m.method}:ci`] = ci && ci.lower.value !== null && ci.upper.value !== null
        ? `[${ci.lower.value.toFixed(3)}, ${ci.upper.value.toFixed(3)}]`
        : null;
      // A run beats another when its stored mean difference is in the headline's
      // direction and its stored Holm-adjusted p is at most alpha.
      const sign = m.higherIsBetter ? 1 : -1;
      const own = st.pairs.filter((p) => p.a === s.run || p.b === s.run);
      if (
        own.some((p) =>
          p.randomizationHolm.reason === NOT_STORED || p.meanDifference.reason === NOT_STORED
        )
      ) {
        values[`${m.method}:sig`] = null;
        continue;
      }
      const beats = own.filter((p) =>
        p.significant && p.meanDifference.value !== null &&
        ((p.a === s.run && sign * p.meanDifference.value > 0) ||
          (p.b === s.run && sign * p.meanDifference.value < 0))
      ).map((p) => index.get(p.a === s.run ? p.b : p.a)!).sort((x, y) => x - y);
      values[`${m.method}:sig`] = beats.length ? beats.join(",") : "";
    }
    return {
      label: `${index.get(s.run)}. ${s.run}`,
      group: REFERENCE.has(s.run) ? "reference" : "runs",
      values,
    };
  });
  return table({
    caption: "Each method's headline score per run (mean over the topics every method scored)",
    rowHeader: "Run",
    columns,
    rows,
    notes,
  });
}

/** Kendall tau-b, Spearman and Pearson across runs, and the mean per-topic correlations. */
export function methodCorrelationTable(
  c: MethodComparison,
  label: (m: string) => string,
  notes: string[],
): Table {
  return table({
    caption: "Agreement between methods across runs (undefined below the minimum number of runs)",
    rowHeader: "Methods",
    columns: [
      { key: "runs", label: "Runs", decimals: 0 },
      { key: "kendall", label: "Kendall tau-b", group: "System" },
      { key: "spearman", label: "Spearman", group: "System" },
      { key: "pearson", label: "Pearson", group: "System" },
      { key: "topicKendall", label: "Kendall tau-b", group: "Mean per topic" },
      { key: "topicSpearman", label: "Spearman", group: "Mean per topic" },
      { key: "topicPearson", label: "Pearson", group: "Mean per topic" },
      { key: "topics", label: "Topics", decimals: 0, group: "Mean per topic" },
    ],
    rows: c.correlations.map((k) => ({
      label: `${label(k.a)} ~ ${label(k.b)}`,
      values: {
        runs: k.runs,
        kendall: f3(k.kendall),
        spearman: f3(k.spearman),
        pearson: f3(k.pearson),
        topicKendall: f3(k.topicKendall),
        topicSpearman: f3(k.topicSpearman),
        topicPearson: f3(k.topicPearson),
        topics: k.topics,
      },
    })),
    notes,
  });
}

/** Topics where two methods order two runs oppositely, with both methods' scores. */
export function disagreementTable(
  c: MethodComparison,
  label: (m: string) => string,
  limit: number,
  notes: string[],
): Table {
  return table({
    caption:
      `Per-topic disagreements: two runs ordered oppositely (largest first, at most ${limit})`,
    rowHeader: "Topic",
    columns: [
      { key: "methods", label: "Methods" },
      { key: "runs", label: "Run x vs run y" },
      { key: "aX", label: "A(x)" },
      { key: "aY", label: "A(y)" },
      { key: "bX", label: "B(x)" },
      { key: "bY", label: "B(y)" },
    ],
    rows: c.disagreements.slice(0, limit).map((d) => ({
      label: d.topicId,
      values: {
        methods: `A ${label(d.a)}, B ${label(d.b)}`,
        runs: `${d.runX} vs ${d.runY}`,
        aX: d.aX,
        aY: d.aY,
        bX: d.bX,
        bY: d.bY,
      },
    })),
    notes,
  });
}

/** Every run pair of every method: stored mean difference, raw and Holm-adjusted p-values, the mark. */
export function significanceTable(
  sig: ReadonlyMap<string, StoredSignificance>,
  label: (m: string) => string,
  notes: string[],
): Table {
  const rows = [...sig].flatMap(([m, s]) =>
    s.pairs.map((p) => ({
      label: `${label(m)}: ${p.a} vs ${p.b}`,
      group: m,
      values: {
        topics: p.topics,
        diff: p.meanDifference.value,
        rand: p.randomizationP.value,
        randHolm: p.randomizationHolm.value,
        t: p.tP.value,
        tHolm: p.tHolm.value,
        mark: p.randomizationHolm.reason === NOT_STORED ? null : p.significant ? "*" : "",
      },
    }))
  );
  return table({
    caption: "Paired tests between runs per method (Holm-corrected across the pairs of a method)",
    rowHeader: "Method: runs",
    columns: [
      { key: "topics", label: "Topics", decimals: 0 },
      { key: "diff", label: "Mean a - b" },
      { key: "rand", label: "Randomization p", group: "Randomization", decimals: 4 },
      { key: "randHolm", label: "Holm", group: "Randomization", decimals: 4 },
      { key: "t", label: "t-test p", group: "Paired t", decimals: 4 },
      { key: "tHolm", label: "Holm", group: "Paired t", decimals: 4 },
      { key: "mark", label: "Sig." },
    ],
    rows,
    notes,
  });
}

/** Every answer's headline score under each method, joined on (topic, run). */
export function answerTable(
  scores: readonly MethodScore[],
  methods: readonly PresentMethod[],
  notes: string[],
): Table {
  const key = (run: string, topic: string) => `${topic}\0${run}`;
  const joined = new Map<
    string,
    { topicId: string; run: string; values: Record<string, number> }
  >();
  for (const s of scores) {
    const k = key(s.run, s.topicId);
    if (!joined.has(k)) joined.set(k, { topicId: s.topicId, run: s.run, values: {} });
    joined.get(k)!.values[s.method] = s.value;
  }
  const rows = [...joined.values()].sort((a, b) =>
    naturalCompare(a.topicId, b.topicId) || naturalCompare(a.run, b.run)
  );
  return table({
    caption: "Answer-level scores of each method, joined on (topic, run)",
    rowHeader: "Topic",
    columns: [
      { key: "run", label: "Run" },
      ...methods.map((m) => ({ key: m.method, label: m.label })),
    ],
    rows: rows.map((r) => ({ label: r.topicId, values: { run: r.run, ...r.values } })),
    notes,
  });
}
