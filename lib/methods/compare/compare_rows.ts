/**
 * The comparison of methods as measure-table rows (method `compare`).
 *
 * @module
 */
import { formatTopicSet } from "@lib/metrics/mod.ts";
import { measureRow } from "@lib/store/mod.ts";
import type { OrientedComparison } from "./oriented_comparison.ts";
import { systemMeanKey, type SystemMeanMethod } from "./system_mean_key.ts";

/** Measure names of the system-level and mean per-topic correlations. */
const SYSTEM = [
  ["kendall_tau_b", "kendall"],
  ["spearman", "spearman"],
  ["pearson", "pearson"],
  ["mean_topic_kendall_tau_b", "topicKendall"],
  ["mean_topic_spearman", "topicSpearman"],
  ["mean_topic_pearson", "topicPearson"],
  ["pairs_kendall_tau_b", "pairsKendall"],
] as const;

const num = (v: number) => (Number.isFinite(v) ? v : null);

/**
 * Rows for `measures`: run `<a>~<b>` (methods in sorted order), judge
 * `<judge a>~<judge b>`; topic `all` holds the system-level correlations across
 * runs, their per-topic means (`mean_topic_*`, `topics` = topics averaged), the
 * Kendall over (run, topic) pairs and the number of run pairs ordered oppositely
 * (`discordant_pairs`); each topic row the correlations across that topic's runs
 * and its discordant pairs. Undefined correlations are stored as NULL. Every
 * row states its topic set: a topic row `topic(id=...)`, a row of topic `all`
 * `scored(n=N)`, the N topics of the answers every method scored (a per-topic
 * mean's `topics` counts those of its topics whose correlation is defined),
 * and `runs`, the number of runs both methods scored (those the system-level
 * correlations are over). Each method's mean per run over the answers every
 * method scored for the run (the system table's values) is a row keyed by
 * `systemMeanKey` (run, `shared:<method>`, the method's judge and measure,
 * topic `all`; NULL without such an answer), its `topics` the number of those
 * answers and its topic set `scored(n=topics)`.
 *
 * @param c The comparison.
 * @param methods The compared methods: each one's judge and headline measure.
 * @returns The rows.
 */
export function compareRows(
  c: OrientedComparison,
  methods: readonly SystemMeanMethod[],
): ReturnType<typeof measureRow<number | null>>[] {
  const judges = new Map(methods.map((m) => [m.method, m.judge]));
  const rows: ReturnType<typeof measureRow<number | null>>[] = [];
  for (const s of c.system) {
    for (const m of methods) {
      if (!(m.method in s.values)) continue;
      rows.push(measureRow({
        ...systemMeanKey(s.run, m),
        topicId: "all",
        method: "compare",
        value: s.values[m.method],
        topics: s.topics,
        topicSet: formatTopicSet({ kind: "scored", n: s.topics }),
      }));
    }
  }
  const discordant = new Map<string, number>();
  for (const d of c.disagreements) {
    const k = `${d.a}~${d.b}\0${d.topicId}`;
    discordant.set(k, (discordant.get(k) ?? 0) + 1);
  }
  const row = (a: string, b: string, topicId: string, measure: string, value: number | null) =>
    measureRow({
      run: `${a}~${b}`,
      topicId,
      measure,
      method: "compare",
      judge: `${judges.get(a) ?? ""}~${judges.get(b) ?? ""}`,
      value,
      topicSet: formatTopicSet(
        topicId === "all" ? { kind: "scored", n: c.topics.length } : { kind: "topic", id: topicId },
      ),
    });
  for (const k of c.correlations) {
    for (const [measure, field] of SYSTEM) {
      const r = row(k.a, k.b, "all", measure, num(k[field]));
      if (measure.startsWith("mean_topic")) r.topics = k.topics;
      rows.push(r);
    }
    rows.push(row(k.a, k.b, "all", "runs", k.runs));
    const topics = c.topicCorrelations.filter((t) => t.a === k.a && t.b === k.b);
    let total = 0;
    for (const t of topics) {
      rows.push(row(k.a, k.b, t.topicId, "kendall_tau_b", num(t.kendall)));
      rows.push(row(k.a, k.b, t.topicId, "spearman", num(t.spearman)));
      rows.push(row(k.a, k.b, t.topicId, "pearson", num(t.pearson)));
      const n = discordant.get(`${k.a}~${k.b}\0${t.topicId}`) ?? 0;
      total += n;
      rows.push(row(k.a, k.b, t.topicId, "discordant_pairs", n));
    }
    const all = row(k.a, k.b, "all", "discordant_pairs", total);
    all.topics = topics.length;
    rows.push(all);
  }
  return rows;
}
