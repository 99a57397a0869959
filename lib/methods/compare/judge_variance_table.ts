/**
 * The judge-variance rows of the measure table as a table.
 *
 * @module
 */
import { type Table, table, type TableColumn } from "@lib/report/mod.ts";
import { readMeasures, type Workspace } from "@lib/store/mod.ts";

const STATS = ["mean", "sd", "min", "max"];

/**
 * Each run's spread of Cov and Den over the judge samples, or undefined when
 * the stage has not run; its notes state the topic set of the means spread.
 */
export async function judgeVarianceTable(ws: Workspace): Promise<Table | undefined> {
  const rows = await readMeasures(ws, { method: "judge-variance" }, ["run", "measure"]);
  if (!rows.length) return undefined;
  const get = (run: string, m: string) =>
    rows.find((r) => r.run === run && r.measure === m)?.value ?? null;
  const measures = [
    ...new Set(rows.filter((r) => r.measure.endsWith("_sd")).map((r) => r.measure.slice(0, -3))),
  ];
  const runs = [...new Set(rows.filter((r) => r.run !== "").map((r) => r.run))];
  const { judge, source } = rows[0];
  const columns: TableColumn[] = measures.flatMap((m) =>
    STATS.map((s) => ({
      key: `${m}_${s}`,
      label: s === "mean" ? "Mean" : s.toUpperCase(),
      group: m,
    }))
  );
  const fmt = (v: number | null, d: number) => (v === null ? "undefined" : v.toFixed(d));
  // The topic set of the means spread, as the stored rows state it.
  const setOf = new Map<string, string>();
  for (const r of rows) if (r.run !== "") setOf.set(r.run, r.topicSet ?? "none stated");
  const sets = [...new Set(setOf.values())];
  const topicSets = sets.length === 1
    ? `Means over the topic set ${sets[0]}.`
    : `Means over the topic sets ${[...setOf].map(([run, set]) => `${set} (${run})`).join("; ")}.`;
  return table({
    caption: `Judge variance of CRUX report measures (${judge}, ${get("", "samples")} samples)`,
    rowHeader: "Run",
    columns,
    rows: runs.map((run) => ({
      label: run,
      values: Object.fromEntries(columns.map((c) => [c.key, get(run, c.key)])),
    })),
    notes: [
      source === "deterministic"
        ? `offline judge "${judge}" is deterministic: every sample is identical (spread 0)`
        : `samples: ${source}`,
      topicSets,
      ...measures.map((m) =>
        `${m}: share of samples ranking the runs as their means do ${
          fmt(get("", `${m}_ranking_agreement`), 2)
        }; mean Kendall tau-b of a sample against the means ${
          fmt(get("", `${m}_mean_kendall_tau_b`), 3)
        }`
      ),
    ],
  });
}
