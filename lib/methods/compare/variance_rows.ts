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
 * `<measure>_mean_kendall_tau_b` and `samples`.
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
  const row = (run: string, measure: string, value: number) =>
    measureRow({
      run,
      topicId: "all",
      measure,
      method: "judge-variance",
      judge: opts.base,
      source: opts.label,
      value: Number.isFinite(value) ? value : null,
    });
  const rows: ReturnType<typeof measureRow<number | null>>[] = [row("", "samples", opts.samples)];
  const parts: string[] = [];
  for (const m of [...new Set(stored.map((s) => s.measure))]) {
    const v = judgeVariance(
      stored.filter((s) => s.measure === m).map((s) => ({
        sample: s.judge,
        run: s.run,
        value: Number(s.value),
      })),
    );
    for (const r of v.runs) {
      rows.push(
        row(r.run, `${m}_mean`, r.mean),
        row(r.run, `${m}_sd`, r.sd),
        row(r.run, `${m}_min`, r.min),
        row(r.run, `${m}_max`, r.max),
      );
    }
    rows.push(row("", `${m}_ranking_agreement`, v.rankingAgreement));
    rows.push(row("", `${m}_mean_kendall_tau_b`, v.meanKendall));
    const spread = Math.max(...v.runs.map((r) => r.max - r.min));
    parts.push(
      `${m} largest spread ${spread.toFixed(3)}, ranking kept in ${
        (v.rankingAgreement * 100).toFixed(0)
      }%`,
    );
  }
  return { rows, summary: parts.join("; ") };
}
