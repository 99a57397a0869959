/**
 * Tables and figures of key point recall (Long2RAG): scores per run, the
 * extraction with its span checks, the merge map, KPR by input and response
 * length, and KPR against CRUX report coverage.
 *
 * @module
 */
import { kendallTau, pearson } from "@lib/metrics/mod.ts";
import { barChart, naturalCompare, type Palette, scatterChart, table } from "@lib/report/mod.ts";
import {
  judgeSourceCounts,
  readEmptyGenerationRuns,
  readGeneratedTopics,
  readGenerationLengths,
  readMeasures,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import type { Analysis, CellSource } from "@lib/analysis/mod.ts";
import { bucketMeans } from "./buckets.ts";
import { extractionAnalyses } from "./extraction.ts";
import { storedReportCoverage, tableCells } from "@lib/analysis/mod.ts";
import { runPalette } from "@lib/analysis/mod.ts";

/** Options of {@linkcode keyPointAnalyses}. */
export interface KeyPointAnalysesOptions {
  /** Key point origin (the measures' `source`). Default: the one with the most rows. */
  source?: string;
  /** Entailment judge. Default: the one with the most rows for that source. */
  judge?: string;
  /** Token edges of the length buckets. Defaults: input [250, 500, 1000, 2000], response [100, 200, 400]. */
  buckets?: { input?: number[]; response?: number[] };
  /** Rows of the merge map table at most (merged points with several originals first). Default 30. */
  mergeRows?: number;
}

const MEASURES = ["KPR", "KPP", "KPF", "kp_supported", "kp_omitted", "kp_contradicted"] as const;

/**
 * The key point analyses of a workspace: `keypoint_scores` (table and bars of
 * KPR, KPP, KPF and the three-way rates per run, and the topics of each KPR
 * mean), `keypoint_extraction` (per topic and in total: originals, flagged key
 * points, spans not found, merged points, unusable answers, the measure stage's
 * stored counts `kp_*`; a topic whose extraction failed is blank with the reason),
 * `keypoint_merge_map` (merged points and their originals),
 * `keypoint_length_input` and `keypoint_length_response` (mean KPR per length
 * bucket and run, Long2RAG's length analysis; input = tokens of the documents
 * given to the response, response = its tokens) and `keypoint_vs_crux` (KPR
 * against CRUX report coverage Cov(y) across runs, Kendall tau-b and Pearson r;
 * a run whose reports are all empty is left out and named).
 * Notes name the source and judge, say when offline backends made them, and
 * state the rule that key points come from each topic's P*. Empty when no key
 * point scores are stored.
 *
 * @param ws The workspace (after the `measure:keypoints` stage).
 * @param opts Source, judge, buckets, merge rows.
 * @returns The analyses, for `saveAnalysis` or display.
 * @example
 * ```ts
 * import { saveAnalysis } from "@lib/analysis/mod.ts";
 * import { keyPointAnalyses } from "@lib/methods/keypoints/analyses.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * for (const a of await keyPointAnalyses(ws)) await saveAnalysis(a, await Deno.makeTempDir());
 * ```
 */
export async function keyPointAnalyses(
  ws: WorkspaceLike,
  opts: KeyPointAnalysesOptions = {},
): Promise<Analysis[]> {
  // The scores' (judge, source) pairs; the extraction's counts (judge '') are not scores.
  const pairs = judgeSourceCounts(
    await readMeasures(ws, {
      method: "keypoints",
      source: opts.source,
      judge: opts.judge,
      measure: MEASURES,
    }),
  );
  if (!pairs.length) return [];
  const { judge, source } = pairs[0];
  const rows = await readMeasures(ws, {
    method: "keypoints",
    judge,
    source,
    measure: MEASURES,
    hasValue: true,
  });
  const offline = judge.startsWith("offline") || source.includes("offline");
  const note = `key points ${source}, entailment judge ${judge}${
    offline ? "; offline backends: salient sentences, lexical merging, lexical entailment" : ""
  }`;
  const rule = source.startsWith("extracted:")
    ? "key points of a topic come from its oracle passages P*, the same set for every run"
    : `key points from ${source.slice(5)}`;
  const runs = [...new Set(rows.map((r) => r.run))].sort(naturalCompare);
  const palette = await runPalette(ws);
  const agg = (run: string, m: string) =>
    rows.find((r) => r.run === run && r.topicId === "all" && r.measure === m);
  const scoreTable = table({
    caption: "Key point recall per run (Long2RAG)",
    label: "tab:keypoint-scores",
    columns: [
      { key: "KPR", label: "KPR", direction: "higher" },
      { key: "KPP", label: "KPP", direction: "higher" },
      { key: "KPF", label: "KPF", direction: "higher" },
      { key: "kp_supported", label: "Supported", group: "Three-way", direction: "higher" },
      { key: "kp_omitted", label: "Omitted", group: "Three-way", direction: "lower" },
      { key: "kp_contradicted", label: "Contradicted", group: "Three-way", direction: "lower" },
      { key: "topics", label: "Topics", decimals: 0 },
    ],
    rows: runs.map((run) => ({
      label: run,
      values: {
        ...Object.fromEntries(MEASURES.map((m) => [m, agg(run, m)?.value ?? null])),
        topics: agg(run, "KPR")?.topics ?? null,
      },
    })),
    notes: [
      note,
      rule,
      "KPP checks the response's sentences against its own context; runs without one have none",
    ],
  });
  const bars = runs.flatMap((run) =>
    (["KPR", "KPP", "KPF"] as const).flatMap((m) => {
      const v = agg(run, m)?.value;
      return v === undefined ? [] : [{ run, measure: m, value: v }];
    })
  );
  const out: Analysis[] = [{
    name: "keypoint_scores",
    data: runs.map((run) => ({
      run,
      ...Object.fromEntries(MEASURES.map((m) => [m, agg(run, m)?.value ?? null])),
    })),
    table: scoreTable,
    // Each score is the stored run mean; Topics is the stored KPR mean's `topics`.
    cells: tableCells(scoreTable, (row, column) =>
      column === "topics"
        ? {
          key: { run: row.label, source, judge, measure: "KPR", topicId: "all" },
          shows: "topics",
          reason: "no KPR mean stored",
        }
        : {
          key: { run: row.label, source, judge, measure: column, topicId: "all" },
          reason: column === "KPP" || column === "KPF"
            ? "no context to check the response against"
            : `no ${column} mean stored`,
        }),
    figure: barChart(bars, {
      title: "Key point recall, precision and F per run",
      note,
      yDomain: [0, 1],
      yTitle: "score",
      palette,
    }),
  }];
  // The extraction table shows the stored counts; the merge map shows text.
  out.push(
    ...(await extractionAnalyses(ws, { source, note, mergeRows: opts.mergeRows ?? 30 })),
  );
  const lengths = await readGenerationLengths(ws);
  const kpr = new Map(
    rows.filter((r) => r.measure === "KPR" && r.topicId !== "all").map((
      r,
    ) => [`${r.run}\u0000${r.topicId}`, r.value]),
  );
  for (const side of ["input", "response"] as const) {
    const edges = opts.buckets?.[side] ??
      (side === "input" ? [250, 500, 1000, 2000] : [100, 200, 400]);
    // A response without input documents (direct prompting, the oracle
    // result) has no input length: it is left out of the input buckets.
    const unbucketed = new Set<string>();
    const data = bucketMeans(
      lengths.flatMap((l) => {
        const v = kpr.get(`${l.run}\u0000${l.topicId}`);
        if (v === undefined) return [];
        if (l[side] === null) {
          unbucketed.add(l.run);
          return [];
        }
        return [{ run: l.run, length: Number(l[side]), value: v }];
      }),
      edges,
    );
    const bucketed = new Set(data.map((d) => d.run));
    const left = [...unbucketed].filter((r) => !bucketed.has(r)).sort(naturalCompare);
    out.push({
      name: `keypoint_length_${side}`,
      data,
      figure: barChart(data, {
        title: `KPR by ${side} length`,
        subtitle: [
          side === "input"
            ? "tokens of the documents given to the response"
            : "tokens of the response",
          left.length
            ? `not bucketed (no ${side} ${side === "input" ? "documents" : "text"}): ${
              left.join(", ")
            }`
            : "",
        ].filter(Boolean).join("; "),
        note,
        x: "bucket",
        color: "run",
        y: "value",
        xTitle: `${side} tokens`,
        yTitle: "mean KPR",
        yDomain: [0, 1],
        palette,
      }),
    });
  }
  out.push(
    await versusCrux(
      ws,
      runs.map((run) => ({ run, kpr: agg(run, "KPR")?.value })),
      note,
      palette,
      (run) => ({ run, source, judge, measure: "KPR", topicId: "all" }),
    ),
  );
  return out;
}

async function versusCrux(
  ws: WorkspaceLike,
  kpr: readonly { run: string; kpr?: number }[],
  note: string,
  palette: Palette,
  kprKey: (run: string) => NonNullable<CellSource["key"]>,
): Promise<Analysis> {
  const { coverage, judge } = await storedReportCoverage(ws);
  // A run whose reports are all empty scores 0 without anything being
  // measured, and alone can carry the correlation: left out, named.
  const emptyRuns = await readEmptyGenerationRuns(ws);
  const leftOut: string[] = [];
  for (const run of emptyRuns) {
    if (!kpr.some((k) => k.run === run)) continue;
    const n = (await readGeneratedTopics(ws, run)).length;
    leftOut.push(`${run} left out: all ${n} report${n === 1 ? "" : "s"} empty`);
  }
  const points = kpr.flatMap((k) => {
    const c = coverage.get(k.run);
    return c !== undefined && k.kpr !== undefined && !emptyRuns.includes(k.run)
      ? [{ run: k.run, coverage: c, kpr: k.kpr }]
      : [];
  });
  const enough = points.length >= 3;
  const tau = enough ? kendallTau(points.map((p) => p.coverage), points.map((p) => p.kpr)) : null;
  const r = enough ? pearson(points.map((p) => p.coverage), points.map((p) => p.kpr)) : null;
  const fmt = (v: number | null) => (v === null || !Number.isFinite(v) ? "n/a" : v.toFixed(3));
  const versus = table({
    caption: "KPR against CRUX report coverage Cov(y) across runs",
    label: "tab:keypoint-vs-crux",
    columns: [
      { key: "kpr", label: "KPR" },
      { key: "coverage", label: "Cov(y)" },
    ],
    rows: points.map((p) => ({ label: p.run, values: { kpr: p.kpr, coverage: p.coverage } })),
    notes: [
      note,
      ...leftOut,
      enough
        ? `Kendall tau-b ${fmt(tau)}, Pearson r ${fmt(r)} over ${points.length} runs`
        : "fewer than 3 runs with both scores: no correlation",
    ],
  });
  return {
    name: "keypoint_vs_crux",
    data: { runs: points, kendallTau: tau, pearson: r },
    table: versus,
    // Both columns are the stored run means.
    cells: tableCells(versus, (row, column) => ({
      key: column === "kpr"
        ? kprKey(row.label)
        : { run: row.label, source: "report", judge: judge ?? "", measure: "Cov", topicId: "all" },
    })),
    ...(points.length
      ? {
        figure: scatterChart(points, {
          title: "Key point recall against CRUX report coverage",
          subtitle: [
            `Kendall tau-b ${fmt(tau)}, Pearson r ${fmt(r)} over ${points.length} runs`,
            ...leftOut,
          ].join("; "),
          note,
          x: "coverage",
          y: "kpr",
          label: "run",
          color: "run",
          colorTitle: "run",
          xTitle: "CRUX report coverage Cov(y)",
          yTitle: "KPR",
          yLimits: [0, 1],
          palette,
        }),
      }
      : {}),
  };
}
