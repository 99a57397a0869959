/**
 * Spread of the CRUX report measures over judge samples, as measure-table rows.
 *
 * @module
 */
import { judgeVariance } from "@lib/metrics/mod.ts";
import { measureRow, readMeasures, type Workspace } from "@lib/store/mod.ts";

/**
 * Reads the `all` rows of Cov and Den (method crux, `source`) of each sample
 * judge and returns rows of method `judge-variance`: per run and measure
 * `<measure>_mean|_sd|_min|_max`, and on run '' `<measure>_ranking_agreement`,
 * `<measure>_mean_kendall_tau_b` and `samples`. Each row states the topic set
 * of the means it spreads, as their stored rows state it (e.g.
 * `answerable(tau=3,n=49)`); a run whose samples' means are not over one stated
 * topic set is left out (its spread would mix topic sets) and the summary says
 * so; the rows across runs (and `samples`) state the runs' one topic set, or
 * none when the runs' sets differ.
 */
export async function varianceRows(
  ws: Workspace,
  opts: { judges: readonly string[]; source: string; base: string; label: string; samples: number },
): Promise<{ rows: ReturnType<typeof measureRow<number | null>>[]; summary: string }> {
  const stored = await readMeasures(ws, {
    method: "crux",
    source: opts.source,
    topicId: "all",
    name: ["Cov", "Den"],
    hasValue: true,
    judge: opts.judges,
  }, ["measure", "judge", "run"]);
  const row = (run: string, measure: string, value: number, topicSet: string | null) =>
    measureRow({
      run,
      topicId: "all",
      measure,
      method: "judge-variance",
      judge: opts.base,
      source: opts.label,
      value: Number.isFinite(value) ? value : null,
      topicSet,
    });
  const setsOf = (xs: typeof stored) => [...new Set(xs.map((s) => s.topicSet ?? null))];
  const one = (sets: (string | null)[]) => (sets.length === 1 ? sets[0] : null);
  const rows: ReturnType<typeof measureRow<number | null>>[] = [];
  const parts: string[] = [];
  const kept: typeof stored = [];
  for (const m of [...new Set(stored.map((s) => s.measure))]) {
    const ofMeasure = stored.filter((s) => s.measure === m);
    // A run whose samples' means are not over one stated topic set has no spread.
    const setOf = new Map<string, string>();
    const mixed: string[] = [];
    for (const run of [...new Set(ofMeasure.map((s) => s.run))]) {
      const set = one(setsOf(ofMeasure.filter((s) => s.run === run)));
      if (set === null) mixed.push(run);
      else setOf.set(run, set);
    }
    if (mixed.length) parts.push(`${m} of ${mixed.join(", ")} left out: not one stated topic set`);
    const used = ofMeasure.filter((s) => setOf.has(s.run));
    if (!used.length) continue;
    kept.push(...used);
    const v = judgeVariance(
      used.map((s) => ({ sample: s.judge, run: s.run, value: Number(s.value) })),
    );
    for (const r of v.runs) {
      const set = setOf.get(r.run)!;
      rows.push(
        row(r.run, `${m}_mean`, r.mean, set),
        row(r.run, `${m}_sd`, r.sd, set),
        row(r.run, `${m}_min`, r.min, set),
        row(r.run, `${m}_max`, r.max, set),
      );
    }
    // Across runs: the runs' one topic set, none stated when they differ.
    const across = one(setsOf(used));
    rows.push(row("", `${m}_ranking_agreement`, v.rankingAgreement, across));
    rows.push(row("", `${m}_mean_kendall_tau_b`, v.meanKendall, across));
    const spread = Math.max(...v.runs.map((r) => r.max - r.min));
    parts.push(
      `${m} largest spread ${spread.toFixed(3)}, ranking kept in ${
        (v.rankingAgreement * 100).toFixed(0)
      }%`,
    );
  }
  rows.unshift(row("", "samples", opts.samples, one(setsOf(kept))));
  return { rows, summary: parts.join("; ") };
}
