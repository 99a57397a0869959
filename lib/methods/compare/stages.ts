/**
 * The side-by-side comparison of evaluation methods as pipeline stages: the
 * method correlations into the measure table, and the judge-variance check.
 *
 * @module
 */
import type { RoleClient } from "@lib/construct/mod.ts";
import {
  clearSampleJudgeRatings,
  deleteMeasures,
  readEmptyGenerationRuns,
  type Workspace,
  writeMeasures,
} from "@lib/store/mod.ts";
import type { MethodStageContext, MethodStages, OpenBackends } from "@lib/pipeline/mod.ts";
import type { StageSpec } from "@lib/pipeline/mod.ts";
import { type MethodHeadline, methodScores } from "@lib/pipeline/mod.ts";
import { compareRows } from "./compare_rows.ts";
import { orientedComparison } from "./oriented_comparison.ts";
import { judgeSamples, sampledJudge } from "./judge_samples.ts";
import { parseCompareSection } from "./section.ts";
import { varianceRows } from "./variance_rows.ts";

/** The `compare` section of an experiment config. */
export interface CompareSection {
  /** Methods compared (`crux`, `keypoints`, ...). Default: every method of the experiment. */
  methods?: string[];
  /** Judge per method when a method has several in the measure table. */
  judges?: Record<string, string>;
  /** Source per method when a method's headline comes from several sources. */
  sources?: Record<string, string>;
  /** Fewer runs make a correlation undefined. Default 3. */
  minRuns?: number;
  /** Judge variance of the CRUX report judging: k samples at a temperature (> 0). */
  variance?: { samples: number; temperature?: number };
}

/** Context of the compare stages: the ids of the other methods' measure stages, when wired. */
export type CompareStageContext = MethodStageContext & { methodStages?: readonly string[] };

/** The comparison's backends: the judge's client for the variance samples (none offline). */
export interface CompareBackends {
  judge?: RoleClient;
}

/** The experiment's headlines; the comparison cannot be declared without them. */
function headlinesOf(ctx: MethodStageContext): readonly MethodHeadline[] {
  if (!ctx.headlines) {
    throw new RangeError(
      `${ctx.configFile}: compare: the stages need the experiment's method headlines (context field "headlines")`,
    );
  }
  return ctx.headlines;
}

const ms = (section: CompareSection, ctx: MethodStageContext) =>
  headlinesOf(ctx).filter((h) => !section.methods || section.methods.includes(h.method));

function compareStage(section: CompareSection, ctx: CompareStageContext): StageSpec {
  const methods = ms(section, ctx);
  return {
    id: "measure:compare",
    stage: "measure",
    // 3: over the answers every method scored, each row stating its topic set.
    // 4: each method's mean per run over those answers, and each pair's runs.
    version: 4,
    params: {
      methods: methods.map((m) => m.method),
      judges: section.judges ?? {},
      sources: section.sources ?? {},
      minRuns: section.minRuns ?? 3,
      runs: ctx.answerRuns,
    },
    deps: [...ctx.judgeStages, ...(ctx.methodStages ?? [])],
    clear: async (ws: Workspace) => {
      await deleteMeasures(ws, { method: "compare" });
    },
    run: async (ws: Workspace) => {
      const read = await methodScores(ws, {
        methods,
        judges: section.judges,
        sources: section.sources,
        runs: ctx.answerRuns.length ? ctx.answerRuns : undefined,
      });
      const missing = read.missing.map((m) => m.method);
      if (missing.length) {
        ctx.onNote?.("measure", `compare: no ${missing.join(", ")} scores in the measure table`);
      }
      // Runs (conditions) a present method has no value for: missing, never a 0.
      const absent = read.present.flatMap((p) =>
        ctx.answerRuns.filter((r) => !p.runs.includes(r)).map((r) => `${p.method}/${r}`)
      );
      if (absent.length) {
        ctx.onNote?.(
          "measure",
          `compare: runs without values, left out of the comparison: ${absent.join(", ")}`,
        );
      }
      if (read.present.length < 2) {
        return `${read.present.length} method present (missing: ${
          missing.join(", ") || "none"
        }); nothing to compare`;
      }
      // A run whose reports are all empty is left out, as the comparison tables leave it out.
      const empty = new Set(await readEmptyGenerationRuns(ws));
      const c = orientedComparison(read.scores.filter((s) => !empty.has(s.run)), read.present, {
        minRuns: section.minRuns,
        maxDisagreements: Infinity,
      });
      const rows = compareRows(c, read.present);
      await writeMeasures(ws, rows);
      const taus = c.correlations.map((k) =>
        `${k.a}~${k.b} ${Number.isFinite(k.kendall) ? k.kendall.toFixed(2) : "undefined"}`
      );
      return `${c.methods.length} methods on ${c.runs.length} runs (missing: ${
        [...missing, ...absent].join(", ") || "none"
      }); Kendall tau-b ${taus.join(", ")}`;
    },
  };
}

function varianceStage(
  section: CompareSection,
  ctx: CompareStageContext,
  backends: OpenBackends<CompareBackends>,
): StageSpec {
  const k = section.variance!.samples;
  const temperature = section.variance!.temperature ?? 0.7;
  return {
    id: "judge:variance",
    stage: "judge",
    // 2: Den's statistics are named `Den_sd`, ... (were `Den(w=0.5)_sd`).
    // 3: each row states the topic set of the means it spreads.
    version: 3,
    params: {
      samples: k,
      temperature,
      backend: ctx.backend,
      judges: section.judges ?? {},
      sources: section.sources ?? {},
    },
    deps: [...ctx.judgeStages],
    clear: async (ws: Workspace) => {
      // Sample judges are named <judge>#s<i>: their ratings go too, so new settings re-sample.
      await deleteMeasures(ws, { method: "judge-variance" });
      await deleteMeasures(ws, { method: "crux", source: "report", sampleJudges: "only" });
      await clearSampleJudgeRatings(ws);
    },
    run: async (ws: Workspace) => {
      const read = await methodScores(ws, {
        methods: [headlinesOf(ctx)[0]],
        judges: section.judges,
        sources: section.sources,
      });
      const base = read.present[0];
      if (!base) return "no CRUX report coverage in the measure table; judge reports first";
      const offline = ctx.backend === "offline";
      let judges = [base.judge];
      if (offline) {
        // The lexical judge is deterministic: every sample equals the judging already stored.
        ctx.onNote?.(
          "judge",
          `offline judge "${base.judge}" is deterministic: ${k} samples are identical (spread 0)`,
        );
      } else {
        const sampled = await judgeSamples(ws, {
          base: base.judge,
          samples: k,
          makeJudge: async (i) => {
            const c = (await backends(ws)).judge!;
            return sampledJudge(c.client, { temperature, seed: i, templatesDir: c.templatesDir });
          },
          onProgress: ctx.onProgress,
          signal: ctx.signal,
        });
        judges = sampled.judges;
        if (sampled.failed) {
          ctx.onNote?.("judge", `${sampled.failed} sampled ratings failed; re-run to retry them`);
        }
      }
      const { rows, summary } = await varianceRows(ws, {
        judges,
        source: base.source,
        base: base.judge,
        label: offline ? "deterministic" : `k=${k},temperature=${temperature}`,
        samples: k,
      });
      await writeMeasures(ws, rows);
      return offline
        ? `offline judge "${base.judge}" is deterministic: spread 0 over ${k} samples`
        : `${k} samples of "${base.judge}": ${summary}`;
    },
  };
}

/**
 * The `compare` section's stages: `measure:compare` reads every method's
 * headline per (run, topic) from `measures` and stores the comparison there
 * (method `compare`, run `<a>~<b>`: `kendall_tau_b`, `spearman`, `pearson`
 * across runs on topic `all`, their per-topic values and `mean_topic_*` means,
 * `pairs_kendall_tau_b`, `discordant_pairs`, `runs`; a lower-is-better headline ranked
 * reversed, so +1 means the same order; and each method's mean per run over the
 * answers every method scored for the run, source `shared:<method>`, its
 * `topics` those answers); with `variance`, `judge:variance`
 * repeats the CRUX report judging k times (temperature > 0, seed = sample) under
 * judge names `<judge>#s<i>` and stores each run's spread of Cov and Den
 * (method `judge-variance`: `Cov_mean`, `Cov_sd`, `Cov_min`, `Cov_max`, the same
 * for `Den`) and, on run '', `<measure>_ranking_agreement` (the share of
 * samples ranking the runs as the means do), `<measure>_mean_kendall_tau_b` and
 * `samples`. Offline the lexical judge is deterministic and the stage says so
 * (spread 0).
 *
 * Wire it after the other methods' measure stages and pass their ids as
 * `methodStages` in the context so a change there re-runs the comparison.
 *
 * @example
 * ```ts
 * import { compareStages } from "@lib/methods/compare/stages.ts";
 * const section = compareStages.parse({ minRuns: 3 }, "experiment.json");
 * section.minRuns; // 3
 * ```
 */
export const compareStages: MethodStages<CompareSection, CompareBackends> = {
  key: "compare",
  parse: parseCompareSection,
  stages(
    section: CompareSection,
    ctx: CompareStageContext,
    backends: OpenBackends<CompareBackends>,
  ): StageSpec[] {
    // Stage kinds in pipeline order: the judging samples before the measure-kind comparison.
    return [
      ...(section.variance ? [varianceStage(section, ctx, backends)] : []),
      compareStage(section, ctx),
    ];
  },
};
