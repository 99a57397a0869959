/**
 * Reading each evaluation method's answer-level headline scores from the
 * measure table, joined on (topic, run), for the side-by-side comparison.
 *
 * @module
 */
import type { MethodScore } from "@lib/metrics/mod.ts";
import { compareBytes } from "@lib/formats/mod.ts";
import { judgeSourceCounts, readMeasures, type Workspace } from "@lib/store/mod.ts";

/** The headline measure of an evaluation method in `measures`. */
export interface MethodHeadline {
  /** `method` column (`crux`, `nuggets`, `keypoints`, `subq`). */
  method: string;
  /** `measure` column of the headline (`Cov`, `strict_vital`, `KPR`, `subq_rating`). */
  measure: string;
  /** Display label. */
  label: string;
  /** Only rows of this `source` (CRUX report coverage: `report`). Default: any. */
  source?: string;
  /**
   * The values the measure can take, `[lowest, highest]`, `null` for an open
   * end: `[0, 1]` for a share, `[0, null]` for a count. Figures draw a closed
   * range as the y axis; an open end follows the data.
   */
  range: readonly [number | null, number | null];
  /** Whether a higher value means a better answer (the comparison orients ranks by it). */
  higherIsBetter: boolean;
}

/** Options of {@linkcode methodScores}. */
export interface MethodScoresOptions {
  /** Methods compared, in order (the method registry's headlines). */
  methods: readonly MethodHeadline[];
  /** Judge to use per method, when a method has several. */
  judges?: Readonly<Record<string, string>>;
  /** Source to use per method, when a method's headline comes from several (e.g. a labels file and a model). */
  sources?: Readonly<Record<string, string>>;
  /** Only these runs. Default: every run some method scored. */
  runs?: readonly string[];
}

/** One method found in the measure table. */
export interface PresentMethod extends MethodHeadline {
  judge: string;
  source: string;
  runs: string[];
}

/** Result of {@linkcode methodScores}. */
export interface MethodScoresResult {
  /** Per-topic headline values, `method` = the method key. */
  scores: MethodScore[];
  present: PresentMethod[];
  /** Methods without a single row of their headline measure. */
  missing: MethodHeadline[];
}

/**
 * Reads every method's headline per (run, topic) from `measures` (topic rows,
 * not `all`). When a method's headline is stored under several (judge, source)
 * pairs, `judges[method]` and `sources[method]` pick one; without them the call
 * fails and lists the pairs. Judge samples of the judge-variance stage
 * (`<judge>#s<i>`) are replicates and never count as judges.
 *
 * @param ws The workspace.
 * @param opts `methods`, `judges`, `runs`.
 * @returns Scores, the methods present (with judge and source) and the missing ones.
 * @throws {RangeError} When a method has several judges or sources and none is chosen, or the chosen judge has no rows.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { methodScores } from "@lib/pipeline/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * const methods = [
 *   { method: "keypoints", measure: "KPR", label: "KPR", range: [0, 1], higherIsBetter: true },
 * ] as const;
 * assert.equal((await methodScores(ws, { methods })).missing.length, 1); // nothing measured yet
 * ws.close();
 * ```
 */
export async function methodScores(
  ws: Workspace,
  opts: MethodScoresOptions,
): Promise<MethodScoresResult> {
  const scores: MethodScore[] = [];
  const present: PresentMethod[] = [];
  const missing: MethodHeadline[] = [];
  const runFilter = opts.runs ? new Set(opts.runs) : undefined;
  for (const h of opts.methods) {
    // Judge samples (`<judge>#s<i>`, from the judge-variance stage) are replicates, not judges.
    const stored = await readMeasures(ws, {
      method: h.method,
      measure: h.measure,
      ...(h.source !== undefined ? { source: h.source } : {}),
      perTopic: true,
      hasValue: true,
      sampleJudges: "exclude",
    });
    const combos = judgeSourceCounts(stored).sort((a, b) =>
      compareBytes(a.judge, b.judge) || compareBytes(a.source, b.source)
    );
    const wanted = opts.judges?.[h.method];
    const wantedSource = opts.sources?.[h.method];
    const chosen = combos.filter((c) =>
      (wanted === undefined || c.judge === wanted) &&
      (wantedSource === undefined || c.source === wantedSource)
    );
    if (combos.length === 0) {
      missing.push(h);
      continue;
    }
    const list = combos.map((c) => `"${c.judge}"${c.source ? ` (source ${c.source})` : ""}`)
      .join(", ");
    if (chosen.length === 0) {
      throw new RangeError(
        `Method "${h.method}" has no ${h.measure} rows by ${
          [wanted && `judge "${wanted}"`, wantedSource !== undefined && `source "${wantedSource}"`]
            .filter(Boolean).join(" from ")
        }; its judges: ${list}`,
      );
    }
    if (chosen.length > 1) {
      throw new RangeError(
        `Method "${h.method}" has ${h.measure} rows by several judges or sources: ${list}; ` +
          `choose one (judges/sources: { ${h.method}: "..." }, or --judge ${h.method}=<judge>, ` +
          `--source ${h.method}=<source>)`,
      );
    }
    const { judge, source } = chosen[0];
    const rows = stored.filter((r) => r.judge === judge && r.source === source);
    const kept = rows.filter((r) => !runFilter || runFilter.has(r.run));
    for (const r of kept) {
      scores.push({ method: h.method, run: r.run, topicId: r.topicId, value: r.value });
    }
    present.push({ ...h, judge, source, runs: [...new Set(kept.map((r) => r.run))] });
  }
  return { scores, present, missing };
}
