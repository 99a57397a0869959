/**
 * The judge-variance rows of the measure table as a table.
 *
 * @module
 */
import { type Table, table } from "@lib/report/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";

/** Each run's Cov spread over the judge samples, or undefined when the stage has not run. */
export async function judgeVarianceTable(ws: Workspace): Promise<Table | undefined> {
  const rows = await ws.query<
    { run: string; measure: string; value: number | null; judge: string; source: string }
  >(
    `SELECT run, measure, value, judge, source FROM measures WHERE method = 'judge-variance'
     ORDER BY run, measure`,
  );
  if (!rows.length) return undefined;
  const get = (run: string, m: string) =>
    rows.find((r) => r.run === run && r.measure === m)?.value ?? null;
  const runs = [...new Set(rows.filter((r) => r.run !== "").map((r) => r.run))];
  const { judge, source } = rows[0];
  const agreement = get("", "ranking_agreement");
  return table({
    caption: `Judge variance of CRUX report coverage (${judge}, ${get("", "samples")} samples)`,
    rowHeader: "Run",
    columns: [
      { key: "mean", label: "Mean Cov" },
      { key: "sd", label: "SD" },
      { key: "min", label: "Min" },
      { key: "max", label: "Max" },
    ],
    rows: runs.map((run) => ({
      label: run,
      values: {
        mean: get(run, "Cov_mean"),
        sd: get(run, "Cov_sd"),
        min: get(run, "Cov_min"),
        max: get(run, "Cov_max"),
      },
    })),
    notes: [
      source === "deterministic"
        ? `offline judge "${judge}" is deterministic: every sample is identical (spread 0)`
        : `samples: ${source}`,
      `share of samples ranking the runs as their means do: ${
        agreement === null ? "-" : agreement.toFixed(2)
      }; ` +
      `mean Kendall tau-b of a sample against the means: ${
        get("", "mean_kendall_tau_b")?.toFixed(3) ?? "undefined"
      }`,
    ],
  });
}
