/**
 * Where each numeric cell of the comparison's tables comes from: the stored
 * per-answer scores and `compare` rows it shows, or the stored scores a
 * statistic is computed from.
 *
 * @module
 */
import type { MethodComparison, MethodScore } from "@lib/metrics/mod.ts";
import type { PresentMethod } from "@lib/pipeline/mod.ts";
import type { Table } from "@lib/report/mod.ts";
import { type CellSource, NOT_STORED, tableCells } from "@lib/analysis/mod.ts";
import { readMeasures, type Workspace } from "@lib/store/mod.ts";
import type { StoredPairTest, StoredSignificance } from "./significance_statistics.ts";
import { systemMeanKey } from "./system_mean_key.ts";

type Key = NonNullable<CellSource["key"]>;

/** Why a run's marks are blank: a test or difference of its pairs is not stored. */
const NOT_STORED_MARKS = "not stored: the statistics stage has not computed the run's tests";

/** A stored run mean of a method's headline (`topics`: topics averaged). */
export interface StoredMean {
  run: string;
  judge: string;
  source: string;
  measure: string;
  topics: number | null;
}

/**
 * A stored `compare` row of topic `all` (see `compareRows`): a method pair's
 * correlation or count, or a method's system mean for a run.
 */
export interface StoredCompareRow {
  run: string;
  source: string;
  judge: string;
  measure: string;
  value: number | null;
  topics: number | null;
}

/** The comparison's tables' cells, from the scores they were made of. */
export interface CompareCells {
  system(t: Table): CellSource[];
  correlations(t: Table): CellSource[];
  disagreements(t: Table): CellSource[];
  significance(t: Table): CellSource[];
  answers(t: Table): CellSource[];
}

/**
 * Cell sources of the comparison tables: a per-answer score names its stored
 * row; a system mean names the stored scores it is computed from (those of the
 * answers every method scored); a test's mean difference and p-values show
 * their stored `statistics` rows (blank with the stored reason); a correlation
 * names the stored `compare` row of its method pair. A system mean over every
 * topic of the stored run mean names that row. Where the compare stage stored
 * them, a system mean and a run's topics name the stored system mean (its value,
 * its `topics`) and a pair's runs its stored `runs` row.
 *
 * @param c The comparison.
 * @param present The methods compared (judge and source of their rows).
 * @param scores The scores compared (empty runs left out).
 * @param all Every score read (the answer listing shows them all).
 * @param sig The stored significance per method, when asked for.
 * @param means The stored run means of the methods' headlines.
 * @param compared The stored `compare` rows of topic `all`.
 * @returns One function per table.
 */
export function compareCells(
  c: MethodComparison,
  present: readonly PresentMethod[],
  scores: readonly MethodScore[],
  all: readonly MethodScore[],
  sig: ReadonlyMap<string, StoredSignificance> | undefined,
  means: readonly StoredMean[] = [],
  compared: readonly StoredCompareRow[] = [],
): CompareCells {
  const storedRow = (k: { run: string; source: string; judge: string; measure: string }) =>
    compared.find((r) =>
      r.run === k.run && r.source === k.source && r.judge === k.judge && r.measure === k.measure
    );
  // A method's stored system mean for a run, and its key.
  const systemMean = (m: string, run: string) => {
    const k = { ...systemMeanKey(run, method.get(m)!), topicId: "all" };
    const r = storedRow(k);
    return r && { key: k, row: r };
  };
  const method = new Map(present.map((p) => [p.method, p]));
  const key = (m: string, run: string, topicId: string): Key => {
    const p = method.get(m)!;
    return { run, source: p.source, judge: p.judge, measure: p.measure, topicId };
  };
  const has = new Set(all.map((s) => `${s.method}\0${s.run}\0${s.topicId}`));
  // The answers every method scored, per run: the system table's and the tests' topics.
  const shared = (run: string) =>
    [...new Set(scores.filter((s) => s.run === run).map((s) => s.topicId))].filter((t) =>
      present.every((p) => has.has(`${p.method}\0${run}\0${t}`))
    );
  const inputs = (m: string, runs: string[]) =>
    runs.flatMap((run) => shared(run).map((t) => key(m, run, t)));
  const runOf = (label: string) => label.replace(/^\d+\. /, "");
  const label = (m: string) => method.get(m)?.label ?? m;
  return {
    system: (t) =>
      tableCells(t, (row, column, value) => {
        const run = runOf(row.label);
        if (column === "topics") {
          // The topics of the run's stored system means.
          const counted = present.map((p) => systemMean(p.method, run)).find((s) =>
            s && s.row.topics !== null
          );
          if (counted) return { key: counted.key, shows: "topics" };
          return {
            derived: "topics every method scored for the run",
            inputs: present.flatMap((p) => inputs(p.method, [run])),
          };
        }
        const [m, part] = column.split(":");
        const ins = inputs(m, [run]);
        if (!part) {
          // The stored system mean, where the compare stage stored it.
          const stored = systemMean(m, run);
          if (stored) {
            return stored.row.value === null
              ? { reason: `no ${label(m)} score on the topics every method scored` }
              : { key: stored.key };
          }
          // Over every topic of the stored run mean, the cell is that stored row.
          const p = method.get(m)!;
          const mean = means.find((x) =>
            x.run === run && x.judge === p.judge && x.source === p.source &&
            x.measure === p.measure
          );
          const own = all.filter((s) => s.method === m && s.run === run).length;
          if (mean && mean.topics === own && ins.length === own) {
            return { key: key(m, run, "all") };
          }
          return ins.length
            ? { derived: "mean over the topics every method scored", inputs: ins }
            : { reason: `no ${label(m)} score on the topics every method scored` };
        }
        const st = sig?.get(m);
        if (part === "sig") {
          // A row number: a run this one beats by the stored tests.
          if (value !== null) {
            return {
              derived:
                "rows this run beats: stored Holm-adjusted randomization p at most alpha, stored mean difference in the headline's direction",
              inputs: ins,
            };
          }
          return {
            reason: st ? NOT_STORED_MARKS : `no tests: no ${label(m)} score for the run`,
          };
        }
        const ci = st?.intervals.find((i) => i.run === run);
        return {
          reason: ci
            ? (ci.lower.value === null ? ci.lower : ci.upper).reason
            : `no interval: no ${label(m)} score for the run`,
        };
      }),
    correlations: (t) =>
      tableCells(t, (row, column) => {
        const k = c.correlations.find((x) => `${label(x.a)} ~ ${label(x.b)}` === row.label)!;
        const pair = {
          run: `${k.a}~${k.b}`,
          source: "",
          judge: `${method.get(k.a)?.judge ?? ""}~${method.get(k.b)?.judge ?? ""}`,
          topicId: "all",
        };
        const measure: Record<string, string> = {
          kendall: "kendall_tau_b",
          spearman: "spearman",
          pearson: "pearson",
          topicKendall: "mean_topic_kendall_tau_b",
          topicSpearman: "mean_topic_spearman",
          topicPearson: "mean_topic_pearson",
        };
        if (column === "runs") {
          // The stored count of the runs the correlations are over, where stored.
          const runs = { ...pair, measure: "runs" };
          if (storedRow(runs)?.value != null) return { key: runs };
          // Else a count of the runs of the stored scores the correlations are over.
          return {
            derived: "runs both methods scored",
            inputs: [...inputs(k.a, c.runs), ...inputs(k.b, c.runs)],
          };
        }
        if (column === "topics") {
          // The topics the stored mean per-topic Kendall tau-b is over.
          return {
            key: { ...pair, measure: "mean_topic_kendall_tau_b" },
            shows: "topics",
            reason: "no mean per-topic correlation stored",
          };
        }
        return {
          key: { ...pair, measure: measure[column] },
          reason: `undefined: fewer than the minimum number of runs, or no variation`,
        };
      }),
    disagreements: (t) =>
      tableCells(t, (row, column) => {
        const d = c.disagreements[t.rows.indexOf(row)];
        const m = column.startsWith("a") ? d.a : d.b;
        const run = column.endsWith("X") ? d.runX : d.runY;
        return { key: key(m, run, d.topicId) };
      }),
    significance: (t) => {
      const rows = [...(sig ?? [])].flatMap(([m, s]) => s.pairs.map((p) => ({ m, p })));
      const shown: Record<string, keyof StoredPairTest> = {
        diff: "meanDifference",
        rand: "randomizationP",
        randHolm: "randomizationHolm",
        t: "tP",
        tHolm: "tHolm",
      };
      const what: Record<string, string> = {
        diff: "mean difference over the topics both runs scored",
        rand: "paired randomization test p",
        randHolm: "paired randomization test p, Holm-adjusted across the method's pairs",
        t: "paired t-test p",
        tHolm: "paired t-test p, Holm-adjusted across the method's pairs",
      };
      return tableCells(t, (row, column) => {
        const { m, p } = rows[t.rows.indexOf(row)];
        const ins = inputs(m, [p.a, p.b]);
        if (column === "topics") {
          // The pairs of the stored mean difference, when stored.
          const d = p.meanDifference;
          return {
            derived: "topics both runs scored",
            inputs: ins,
            ...(d.reason === NOT_STORED ? {} : { statistic: d.id, shows: "n" as const }),
          };
        }
        if (column === "mark") return { reason: NOT_STORED_MARKS };
        const s = p[shown[column]] as StoredPairTest["tP"];
        return s.value === null
          ? { reason: s.reason, statistic: s.id }
          : { derived: what[column], inputs: ins, statistic: s.id };
      });
    },
    answers: (t) =>
      tableCells(t, (row, column) => {
        const run = String(row.values.run);
        return method.has(column)
          ? { key: key(column, run, row.label), reason: `no ${label(column)} score stored` }
          : { derived: "run name of the stored scores", inputs: [] };
      }),
  };
}

/**
 * Cell sources of the judge-variance table: each cell is a stored
 * `judge-variance` row (run, `<measure>_<statistic>`, topic `all`).
 *
 * @param ws The workspace.
 * @param t The table of `judgeVarianceTable`.
 * @returns One source per numeric cell and per blank one.
 */
export async function varianceCells(ws: Workspace, t: Table): Promise<CellSource[]> {
  const rows = await readMeasures(ws, { method: "judge-variance" });
  return tableCells(t, (row, column) => {
    const r = rows.find((x) => x.run === row.label && x.measure === column);
    return r
      ? {
        key: { run: r.run, source: r.source, judge: r.judge, measure: r.measure, topicId: "all" },
      }
      : { reason: "undefined over the judge samples" };
  });
}
