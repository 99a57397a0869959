/**
 * The statistics stage's arithmetic: each statistic a table asks for, computed
 * from the stored measure values of its inputs. Tables never compute these;
 * they read the stored rows (see `stored_statistic.ts`).
 *
 * @module
 */
import {
  bootstrapCi,
  kendallTau,
  mean,
  pairedTTest,
  pearson,
  randomizationTest,
} from "@lib/metrics/mod.ts";
import { formatStatisticKey, type StatisticKey, type StoredStatistic } from "@lib/store/mod.ts";
import { HOLM, holmStatistic } from "./_holm_statistic.ts";

/**
 * A statistic a table shows, with the stored values of its inputs: what the
 * statistics stage computes and stores under `key`.
 */
export interface StatisticRequest {
  key: StatisticKey;
  /** The stored values of `key.x`, in order; null where none is stored. */
  x: readonly (number | null)[];
  /** The stored values of `key.y`, paired with `x`; null where none is stored. */
  y?: readonly (number | null)[];
  /** Why each input without a stored value has none (e.g. `bm25 Cov(y): ratings failed for topic t2`). */
  missing?: readonly string[];
}

/** The statistics {@linkcode computeStatistics} knows. */
export const STATISTICS = [
  "kendall_tau_b",
  "pearson_r",
  "mean",
  "sd",
  "bootstrap_ci_lower",
  "bootstrap_ci_upper",
  "paired_t_p",
  // Over the stored values of sampled contexts, named as sets (see `SAMPLED`).
  "kendall_tau_b_sampled",
  // Paired tests between runs (the method comparison).
  "mean_diff",
  "randomization_p",
  "holm_p",
  // The rank of one input among the others (see `rankOf`).
  "rank",
] as const;

/** Paired per-topic statistics of two runs: `x` and `y` each name one stored mean measure. */
const PAIRED_RUNS = new Set(["paired_t_p", "mean_diff", "randomization_p"]);

/**
 * Statistics over the per-topic values of one stored measure (`x` names it once,
 * its values are those of the topics of the topic set; `paired_t_p` pairs them by
 * topic with the one measure of `y`).
 */
const PER_TOPIC = new Set(["bootstrap_ci_lower", "bootstrap_ci_upper", ...PAIRED_RUNS]);

/**
 * Statistics over the stored values of sampled contexts, too many to list in a
 * key: each ref of `x` (and of `y`, paired by position) names every sample of one
 * run (`<run>#sample*`, the rows `<run>#sample<i>` of each topic of the topic
 * set), parameter `contexts` their number in all, `x` and `y` carry the values.
 */
const SAMPLED = new Set(["kendall_tau_b_sampled"]);

/**
 * `rank`: the rank (1 = best) of the input at parameter `position` (from 0) among
 * all inputs of `x`, best the highest (parameter `order` `higher`) or the lowest
 * (`lower`); values equal to 9 decimals share the best rank of their group.
 */
function rankOf(xs: readonly number[], p: Readonly<Record<string, string | number>>): number {
  const round = (v: number) => Math.round(v * 1e9) / 1e9;
  const v = round(xs[Number(p.position)]);
  const better = (w: number) => (p.order === "lower" ? round(w) < v : round(w) > v);
  return 1 + xs.filter(better).length;
}

/**
 * Computes each requested statistic from its inputs' stored values: Kendall's
 * tau-b or Pearson's r of the paired vectors (`kendall_tau_b`, `pearson_r`;
 * `kendall_tau_b_sampled` over the values of sampled contexts, its inputs named
 * as sets), the mean (`mean`) or the sample
 * standard deviation, n - 1 (`sd`) of the first; over the per-topic values of
 * one measure, the bounds of the percentile bootstrap interval of their mean
 * (`bootstrap_ci_lower` / `_upper`; parameters `samples` 1,000, `level` 0.95,
 * `seed` 1) and the two-sided paired t-test p against another measure's values on
 * the same topics (`paired_t_p`; 1 when the two are equal on every topic), the
 * mean of their differences x - y (`mean_diff`, defined over one topic too) and
 * the two-sided paired randomization test p (`randomization_p`; parameters
 * `trials` 10,000, `seed` 1); the Holm-adjusted p of one such test in its
 * family (`holm_p`: parameters `test`, the raw test, `family`, a JSON list of
 * the runs whose every pair i < j is tested, and the test's own parameters; `x`
 * and `y` name the pair; the family's raw tests must be requested too, and a
 * family test without a value does not count); and the rank of one input among
 * all (`rank`; parameters `position` and `order`). A statistic with an input that
 * has no stored value is absent (value null), with the inputs' reasons: never a
 * value over the other inputs. So is one that is undefined on its inputs (tau-b
 * or r of a constant vector, sd of one value), with why. Requests with the same key
 * (several tables showing one statistic) give one row.
 *
 * @param requests What the tables show.
 * @returns One stored statistic per distinct key, in request order.
 * @throws {RangeError} When a statistic is unknown, its vectors differ in length, or two
 *   requests of one key carry different values.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { computeStatistics } from "@lib/analysis/mod.ts";
 * const ref = (run: string, measure: string) => ({ run, source: "", judge: "", measure });
 * const runs = ["a", "b", "c"];
 * const [tau] = computeStatistics([{
 *   key: { statistic: "kendall_tau_b", x: runs.map((r) => ref(r, "P@10")),
 *     y: runs.map((r) => ref(r, "Cov")), topicSet: "all" },
 *   x: [0.1, 0.2, 0.3], y: [0.3, 0.2, 0.4],
 * }]);
 * assert.equal(tau.value, 1 / 3); // 2 concordant pairs, 1 discordant, no ties
 * ```
 */
export function computeStatistics(requests: readonly StatisticRequest[]): StoredStatistic[] {
  const out = new Map<string, { row: StoredStatistic; request: StatisticRequest }>();
  const holm: { id: string; request: StatisticRequest }[] = [];
  for (const r of requests) {
    const id = formatStatisticKey(r.key);
    const seen = out.get(id);
    if (seen) {
      if (JSON.stringify([seen.request.x, seen.request.y]) !== JSON.stringify([r.x, r.y])) {
        throw new RangeError(`Cannot compute statistic ${id}: two tables give it different inputs`);
      }
      continue;
    }
    // A Holm-adjusted p needs its whole family's raw p-values: computed once they all are.
    const row = r.key.statistic === HOLM
      ? { key: r.key, value: null, n: 0, reason: "" }
      : computeOne(r, id);
    out.set(id, { row, request: r });
    if (r.key.statistic === HOLM) holm.push({ id, request: r });
  }
  const raw = new Map([...out].map(([id, v]) => [id, v.row]));
  for (const h of holm) {
    out.set(h.id, { row: holmStatistic(h.request.key, raw), request: h.request });
  }
  return [...out.values()].map((v) => v.row);
}

function computeOne(r: StatisticRequest, id: string): StoredStatistic {
  const { key } = r;
  if (!(STATISTICS as readonly string[]).includes(key.statistic)) {
    throw new RangeError(
      `Cannot compute statistic ${id}: unknown statistic (known: ${STATISTICS.join(", ")})`,
    );
  }
  const sampled = SAMPLED.has(key.statistic);
  const paired = key.statistic === "kendall_tau_b" || key.statistic === "pearson_r" ||
    PAIRED_RUNS.has(key.statistic) || sampled;
  const perTopic = PER_TOPIC.has(key.statistic);
  if (
    (perTopic
      ? key.x.length !== 1 || (paired && key.y?.length !== 1)
      : sampled
      ? r.x.length !== Number(key.params?.contexts)
      : r.x.length !== key.x.length) ||
    (paired &&
      (!key.y || !r.y || r.y.length !== r.x.length || key.y.length !== key.x.length))
  ) {
    throw new RangeError(`Cannot compute statistic ${id}: its inputs and values differ in length`);
  }
  const complete = r.x.filter((v, i) => v !== null && (!paired || r.y![i] !== null)).length;
  const absent = (reason: string): StoredStatistic => ({ key, value: null, n: complete, reason });
  if (complete < r.x.length) {
    const why = [...new Set(r.missing ?? [])];
    return absent(
      `${r.x.length - complete} of ${r.x.length} inputs have no stored value${
        why.length ? `: ${why.join("; ")}` : ""
      }`,
    );
  }
  const xs = r.x as number[];
  const n = xs.length;
  if (key.statistic === "rank") {
    const p = key.params ?? {};
    const at = Number(p.position);
    if (!Number.isInteger(at) || at < 0 || at >= n || !["higher", "lower"].includes(`${p.order}`)) {
      throw new RangeError(
        `Cannot compute statistic ${id}: parameter position must name an input (0 to ${
          n - 1
        }) and order be higher or lower`,
      );
    }
    return { key, value: rankOf(xs, p), n, reason: "" };
  }
  if (key.statistic === "mean") {
    return n ? { key, value: mean(xs), n, reason: "" } : absent("no inputs");
  }
  if (key.statistic === "mean_diff") {
    const ys = r.y as number[];
    return n
      ? { key, value: xs.reduce((s, v, k) => s + v - ys[k], 0) / n, n, reason: "" }
      : absent("no topics both runs scored");
  }
  if (n < 2) return absent(`undefined over ${n} value${n === 1 ? "" : "s"}`);
  if (key.statistic === "bootstrap_ci_lower" || key.statistic === "bootstrap_ci_upper") {
    const p = key.params ?? {};
    const ci = bootstrapCi(xs, {
      samples: Number(p.samples ?? 1000),
      level: Number(p.level ?? 0.95),
      seed: Number(p.seed ?? 1),
    });
    return {
      key,
      value: key.statistic === "bootstrap_ci_lower" ? ci.lower : ci.upper,
      n,
      reason: "",
    };
  }
  if (key.statistic === "paired_t_p") {
    const ys = r.y as number[];
    const value = xs.every((x, i) => x === ys[i]) ? 1 : pairedTTest(xs, ys).p;
    return { key, value, n, reason: "" };
  }
  if (key.statistic === "randomization_p") {
    const p = key.params ?? {};
    const test = randomizationTest(xs, r.y as number[], {
      trials: Number(p.trials ?? 10_000),
      seed: Number(p.seed ?? 1),
    });
    return { key, value: test.p, n, reason: "" };
  }
  if (key.statistic === "sd") {
    const m = mean(xs);
    const value = Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 1));
    return { key, value, n, reason: "" };
  }
  const ys = r.y as number[];
  const constant = (v: number[]) => v.every((a) => a === v[0]);
  if (constant(xs) && constant(ys)) {
    return absent(`undefined: both vectors are constant (${xs[0]} and ${ys[0]} for all ${n})`);
  }
  if (constant(xs) || constant(ys)) {
    return absent(
      `undefined: the ${constant(xs) ? "first" : "second"} vector is constant (${
        (constant(xs) ? xs : ys)[0]
      } for all ${n})`,
    );
  }
  const value = key.statistic === "pearson_r" ? pearson(xs, ys) : kendallTau(xs, ys);
  return { key, value, n, reason: "" };
}
