/**
 * Tables and figures of sub-question coverage by type (Xie et al.) from the workspace.
 *
 * @module
 */
import { correlationHeatmap } from "@lib/report/mod.ts";
import {
  readGeneratedRuns,
  readMainSubqCoverageJudge,
  readMeasures,
  readStatistics,
  readSubqBackends,
  readSubqPairwiseVerdicts,
  readSubqPreferenceRows,
  type StatisticKey,
  type Workspace,
} from "@lib/store/mod.ts";
import { OFFLINE_BACKENDS, type TypeWeights, workspaceCoverageLines } from "@lib/subq/mod.ts";
import {
  type Analysis,
  type ShownStatistic,
  type StatisticRequest,
  storedStatistic,
  tableCells,
} from "@lib/analysis/mod.ts";
import {
  cellsTable,
  METRIC_COLUMNS,
  metricsTable,
  preferenceRows,
  preferenceTable,
  type PreferenceValue,
  winRateTable,
} from "./tables.ts";
import { CELL_TYPES, type CellColumn, subqCells } from "./cell_measures.ts";
import { subqPreferences } from "./preference_measures.ts";
import { subqWinRates, type WinRateKind } from "./win_rate_measures.ts";

/** Options of {@linkcode subqAnalyses}. */
export interface SubqAnalysesOptions {
  /** Origin of the sub-questions. Default `decompose`. */
  source?: string;
  /** Coverage judge. Default: the one with the most judgments in `subq_coverage`. */
  judge?: string;
  /** Runs. Default: every generation run, in name order. */
  runs?: readonly string[];
  weights?: TypeWeights;
  /** Validation share and seed of the weight search. Defaults 0.5 and 42. */
  validation?: number;
  seed?: number;
  /**
   * Who made each preference set's pairs, by set name (its file's name: `human`,
   * `model`, `made-up`); only `human` sets are called human. Default: undeclared.
   */
  preferenceOrigins?: Readonly<Record<string, "human" | "model" | "made-up">>;
}

const OFFLINE = new Set<string>(Object.values(OFFLINE_BACKENDS));

/**
 * The method's analyses: `subq_cells` (the four cells per type and system),
 * `subq_metrics` (#1-#6 and the rating with per-metric rankings), and, when
 * the workspace holds them, `subq_preferences` (accuracy of the core-only and
 * hybrid ratings, the pairwise judge and the weight search per preference set)
 * and `subq_win_rates` (the win-rate matrix of the pairwise comparison, with a
 * heatmap of the net win rate: the stored rows of `subqWinRates`, of the pairwise
 * judge with the most verdicts). Offline backends are named in every note.
 *
 * @param ws The workspace (after the `subq` stages).
 * @param opts Source, judge, runs, weights, weight search settings.
 * @returns The analyses (save them with `saveAnalysis`).
 * @example
 * ```ts
 * import { saveAnalysis } from "@lib/analysis/mod.ts";
 * import { subqAnalyses } from "@lib/methods/subq/analyses.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * for (const a of await subqAnalyses(ws)) await saveAnalysis(a, await Deno.makeTempDir());
 * ```
 */
export async function subqAnalyses(
  ws: Workspace,
  opts: SubqAnalysesOptions = {},
): Promise<Analysis[]> {
  const source = opts.source ?? "decompose";
  const judge = opts.judge ?? await readMainSubqCoverageJudge(ws);
  if (!judge) return [];
  const runs = opts.runs ?? (await readGeneratedRuns(ws)).map((r) => r.run);
  // Decomposers first, then classifiers, each in name order: the notes are the same every time.
  const backends = await readSubqBackends(ws, source);
  const note = (extra: string[] = []) => {
    const all = [...new Set([...backends, judge, ...extra])];
    const off = all.filter((b) => OFFLINE.has(b));
    // Each backend named once: the offline ones on their own line.
    const online = all.filter((b) => !OFFLINE.has(b));
    return [
      `sub-questions: ${source}${online.length ? `; backends: ${online.join(", ")}` : ""}`,
      ...(off.length ? [`offline backends: ${off.join(", ")}`] : []),
    ];
  };
  const { lines, missing } = await workspaceCoverageLines(ws, { runs, judge, source });
  const present = runs.filter((r) => lines.some((l) => l.system === r));
  const missingNote = missing
    ? [`${missing} (answer, sub-question) pairs without a usable judgment are left out.`]
    : [];
  // The cells are the stored rows of measure:subq (its shares and counts per run and type).
  const storedCells = new Map(
    (await readMeasures(ws, {
      method: "subq",
      judgeSources: [{ judge, source }],
      topicId: "all",
      measurePrefix: "subq_",
    })).map((r) => [`${r.run}\u0000${r.measure}`, r.value]),
  );
  const cellKey = (run: string, column: CellColumn, type: (typeof CELL_TYPES)[number]) => ({
    run,
    source,
    judge,
    measure: subqCells.measure(column, type),
    topicId: "all",
  });
  const cellValue = (run: string, column: CellColumn, type: (typeof CELL_TYPES)[number]) =>
    storedCells.get(`${run}\u0000${subqCells.measure(column, type)}`) ?? null;
  const chunks = new Set(
    present.filter((r) => lines.every((l) => l.system !== r || l.retrieved !== undefined)),
  );
  const cellTable = cellsTable(cellValue, present, [...note(), ...missingNote]);
  // The metrics and the rating are the stored run means of measure:subq; a rank
  // orders the column's stored means, stored by the statistics stage.
  const measureOf = new Map(METRIC_COLUMNS.map(([k, , m]) => [k, m]));
  const key = (run: string, column: string) => ({
    run,
    source,
    judge,
    measure: measureOf.get(column)!,
    topicId: "all",
  });
  const metricValue = (run: string, column: string) =>
    storedCells.get(`${run}\u0000${measureOf.get(column)}`) ?? null;
  const stats = { statistics: await readStatistics(ws) };
  const ranks = new Map<string, ShownStatistic>();
  const statistics: StatisticRequest[] = [];
  for (const [column, , measure, higher] of METRIC_COLUMNS) {
    const ranked = present.filter((r) => metricValue(r, column) !== null);
    ranked.forEach((run, position) => {
      const k: StatisticKey = {
        statistic: "rank",
        x: ranked.map((r) => ({ run: r, source, judge, measure })),
        topicSet: "all",
        params: { position, order: higher ? "higher" : "lower" },
      };
      statistics.push({ key: k, x: ranked.map((r) => metricValue(r, column)) });
      ranks.set(`${run}\u0000${column}`, storedStatistic(stats, k));
    });
  }
  const metrics = metricsTable(
    present,
    metricValue,
    (run, column) => ranks.get(`${run}\u0000${column}`)?.value ?? null,
    note(),
  );
  const out: Analysis[] = [
    {
      name: "subq_cells",
      data: { lines: lines.length, runs: present },
      table: cellTable,
      cells: tableCells(cellTable, (row, column) => {
        const at = row.label.lastIndexOf(" · ");
        const run = row.label.slice(0, at);
        const type = row.label.slice(at + 3) as (typeof CELL_TYPES)[number];
        const col = column as CellColumn;
        const stored = storedCells.has(`${run}\u0000${subqCells.measure(col, type)}`);
        return {
          key: cellKey(run, col, type),
          reason: stored
            ? "no value stored"
            : col !== "a" && col !== "n" && !chunks.has(run)
            ? "no retrieved chunks for this system's answers"
            : col === "a" && !lines.some((l) => l.system === run && l.type === type)
            ? "no sub-question of this type judged for this system"
            : "not stored: run the measure:subq stage",
        };
      }),
    },
    {
      name: "subq_metrics",
      data: { runs: present, rows: metrics.rows.map((r) => ({ run: r.label, ...r.values })) },
      table: metrics,
      statistics,
      cells: tableCells(metrics, (row, column) => {
        const base = column.replace(/_rank$/, "");
        const why = base === "r_core"
          ? "no retrieval context for this system"
          : "undefined for this system (no answer in a cell the metric divides by)";
        if (base !== column) {
          const stat = ranks.get(`${row.label}\u0000${base}`);
          return {
            derived: "rank of the system on the column",
            inputs: metrics.rows.filter((r) =>
              r.values[base] !== null && r.values[base] !== undefined
            )
              .map((r) => key(r.label, base)),
            ...(stat ? { statistic: stat.id } : {}),
            reason: stat ? stat.reason : `no value to rank: ${why}`,
          };
        }
        return {
          key: key(row.label, column),
          reason: metricValue(row.label, column) === null && !storedCells.size
            ? "not stored: run the measure:subq stage"
            : why,
        };
      }),
    },
  ];
  // Per preference set, the evaluation measure:subq stored.
  const prefs = await readSubqPreferenceRows(ws);
  const prefRows = await readMeasures(ws, {
    method: "subq",
    sourcePrefix: subqPreferences.prefix,
    topicId: "all",
  });
  for (const set of [...new Set(prefs.map((p) => p.source))]) {
    const mine = prefs.filter((p) => p.source === set);
    const prefSource = subqPreferences.source(set);
    const found = new Map(
      prefRows.filter((r) => r.source === prefSource).map((r) => [`${r.run}\u0000${r.measure}`, r]),
    );
    const value: PreferenceValue = (run, measure) =>
      found.get(`${run}\u0000${measure}`)?.value ?? null;
    // Sets stored under a path by an older stage: their file's name.
    const base = set.split("/").at(-1)!;
    const prefTable = preferenceTable(
      value,
      [`preference set: ${base}`, ...note([mine[0].pairwiseJudge])],
      { origin: opts.preferenceOrigins?.[set] },
    );
    const runOf = new Map(preferenceRows(value).map((r) => [r.label, r.run]));
    out.push({
      name: "subq_preferences",
      data: { set, rows: [...found.values()] },
      table: prefTable,
      cells: tableCells(prefTable, (row, column) => {
        const run = runOf.get(row.label)!;
        const measure = column === "acc" ? "subq_preference_accuracy" : "subq_preference_pairs";
        const stored = found.get(`${run}\u0000${measure}`);
        return {
          ...(stored
            ? {
              key: {
                run,
                source: stored.source,
                judge: stored.judge,
                measure,
                topicId: "all",
              },
            }
            : {}),
          reason: !found.size
            ? "not stored: run the measure:subq stage"
            : run === "search-held-out"
            ? "no pairs held out"
            : "no labelled pair to score",
        };
      }),
    });
  }
  // The win rates are the stored rows of measure:subq, of the judge with the most verdicts.
  const verdicts = await readSubqPairwiseVerdicts(ws);
  if (verdicts.length) {
    const byJudge = new Map<string, number>();
    for (const v of verdicts) byJudge.set(v.judge, (byJudge.get(v.judge) ?? 0) + 1);
    const judges = [...byJudge].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const pj = judges[0][0];
    const names = subqWinRates.runs(verdicts, pj);
    const compared = new Set(
      verdicts.filter((v) => v.judge === pj).flatMap((v) => [
        `${v.runA}\u0000${v.runB}`,
        `${v.runB}\u0000${v.runA}`,
      ]),
    );
    const winRows = new Map(
      (await readMeasures(ws, {
        method: "subq",
        source: subqWinRates.source,
        judge: pj,
        topicId: "all",
      })).map((r) => [`${r.run}\u0000${r.measure}`, r]),
    );
    const stored = (kind: WinRateKind, run: string, opponent: string) =>
      winRows.get(`${run}\u0000${subqWinRates.measure(kind, opponent)}`);
    const others = judges.slice(1).map(([j]) => j);
    const notes = [
      ...note([pj]),
      ...(others.length
        ? [`verdicts of other pairwise judges not shown: ${others.join(", ")}`]
        : []),
    ];
    const figure = correlationHeatmap(
      names.flatMap((a) =>
        names.flatMap((b) => {
          const net = stored("net_win_rate", a, b);
          return net && net.value !== null ? [{ a, b, value: net.value }] : [];
        })
      ),
      {
        title: "Pairwise comparison of the core sub-question variants",
        subtitle:
          "net win rate of the row over the column: (wins - losses) / topics; position-swapped judge",
        note: notes.join("; "),
        symmetric: false,
        order: names,
        valueTitle: "net win rate",
      },
    );
    const wins = winRateTable(
      (run, opponent) => stored("win_rate", run, opponent)?.value ?? null,
      names,
      notes,
    );
    const opponentOf = new Map(names.map((r, i) => [`c${i}`, r]));
    out.push({
      name: "subq_win_rates",
      data: [...winRows.values()],
      table: wins,
      cells: tableCells(wins, (row, column) => {
        const opponent = opponentOf.get(column)!;
        const found = stored("win_rate", row.label, opponent);
        return {
          ...(found
            ? {
              key: {
                run: row.label,
                source: subqWinRates.source,
                judge: pj,
                measure: found.measure,
                topicId: "all",
              },
            }
            : {}),
          reason: row.label === opponent
            ? "a system is not compared with itself"
            : !compared.has(`${row.label}\u0000${opponent}`)
            ? "no verdicts for the pair"
            : "not stored: run the measure:subq stage",
        };
      }),
      figure,
    });
  }
  return out;
}
