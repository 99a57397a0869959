/**
 * The comparison of methods as measure-table rows (method `compare`).
 *
 * @module
 */
import { formatTopicSet } from "@lib/metrics/mod.ts";
import { measureRow } from "@lib/store/mod.ts";
import type { OrientedComparison } from "./oriented_comparison.ts";

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
 * mean's `topics` counts those of its topics whose correlation is defined).
 */
export function compareRows(
  c: OrientedComparison,
  judges: ReadonlyMap<string, string>,
): ReturnType<typeof measureRow<number | null>>[] {
  const rows: ReturnType<typeof measureRow<number | null>>[] = [];
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
