/**
 * The random contexts of the metric correlations and the names their stored
 * measure values go by, shared by the measure stage that stores them and the
 * table that reads them.
 *
 * Naming of the stored rows: the i-th context (from 1) drawn from run R for a
 * topic is stored under run `R#sample<i>` and topic the topic's id; its source
 * is `sample(tau=T,n=N,k=K,depth=D,seed=S)` - the threshold of the sub-questions
 * as subtopics (and of Cov and Den), the contexts drawn per run and topic, the
 * passages per context, the depth drawn from and the seed - so rows of other
 * draws never stand for these; its measures are the context measures at cutoff
 * K, named by `formatMeasureKey` (`Cov@10`, `R(rel=3)@10`, `Den@10`; `Cov(tau=4)@10`
 * at tau 4).
 *
 * @module
 */
import {
  CRUX_DEFAULTS,
  formatMeasureKey,
  type Measure,
  type MeasureKeyColumns,
  seededRandom,
} from "@lib/metrics/mod.ts";
import { CONTEXT_MEASURES, type ContextKey } from "@lib/pipeline/mod.ts";
import { sampleContexts } from "./sample_contexts.ts";

/** How the contexts are drawn and measured. */
export interface SampleSettings {
  /** Contexts drawn per run and topic. Default 16. */
  samples: number;
  /** Passages per context (and the measures' cutoff). Default 10. */
  size: number;
  /** Draw from the top `depth` of each ranking. Default 50. */
  depth: number;
  /** Seed of the draw. Default 42. */
  seed: number;
  /** Answerability threshold. Default 3. */
  tau: number;
}

/** One drawn context: its run, sample number (from 1), stored run name, topic and passages. */
export interface SampledContext {
  run: string;
  sample: number;
  /** The run its values are stored under: `<run>#sample<i>`. */
  name: string;
  topicId: string;
  ids: string[];
}

/** The measures stored of every sampled context, in the table's order. */
export const SAMPLE_KEYS: readonly ContextKey[] = [
  "covZ",
  "andcg",
  "denZ",
  "recall",
  "map",
  "ndcg",
  "precision",
];

/**
 * Sampling and naming of the metric correlations' contexts (see the module
 * comment): the settings with defaults, the draw, and the stored names.
 */
export const sampledContexts = {
  /**
   * The settings with their defaults (16 x 10 from the top 50, seed 42, tau 3).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { sampledContexts } from "@lib/analysis/sampled_contexts.ts";
   * assert.equal(sampledContexts.settings({ seed: 7 }).samples, 16);
   * ```
   */
  settings(opts: Partial<SampleSettings>): SampleSettings {
    return {
      samples: opts.samples ?? 16,
      size: opts.size ?? 10,
      depth: opts.depth ?? 50,
      seed: opts.seed ?? 42,
      tau: opts.tau ?? CRUX_DEFAULTS.tau,
    };
  },
  /**
   * Draws the contexts: one seeded generator, runs in the given order, each
   * run's topics of `topics` in id order, `samples` contexts per topic.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { sampledContexts } from "@lib/analysis/sampled_contexts.ts";
   * const ranked = new Map([["bm25", new Map([["t1", ["a", "b", "c"]]])]]);
   * const s = sampledContexts.settings({ samples: 2, size: 2 });
   * const drawn = sampledContexts.draw(ranked, new Set(["t1"]), s);
   * assert.deepEqual(drawn.map((c) => c.name), ["bm25#sample1", "bm25#sample2"]);
   * ```
   */
  draw(
    ranked: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>,
    topics: ReadonlySet<string>,
    s: SampleSettings,
  ): SampledContext[] {
    const random = seededRandom(s.seed);
    const out: SampledContext[] = [];
    for (const [run, byTopic] of ranked) {
      const ordered = [...byTopic].filter(([t]) => topics.has(t))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [topicId, ids] of ordered) {
        const drawn = sampleContexts(ids, {
          random,
          samples: s.samples,
          size: s.size,
          depth: s.depth,
        });
        drawn.forEach((sample, i) =>
          out.push({
            run,
            sample: i + 1,
            name: sampledContexts.run(run, i + 1),
            topicId,
            ids: sample,
          })
        );
      }
    }
    return out;
  },
  /** The stored run of the i-th context (from 1) of a run: `<run>#sample<i>`. */
  run(run: string, i: number): string {
    return `${run}#sample${i}`;
  },
  /** The stored source: `sample(tau=T,n=N,k=K,depth=D,seed=S)`. */
  source(s: SampleSettings): string {
    return `sample(tau=${s.tau},n=${s.samples},k=${s.size},depth=${s.depth},seed=${s.seed})`;
  },
  /**
   * The key columns of a stored value of a context (method `crux` for Cov and
   * Den, else `trec`), by `formatMeasureKey`: Cov and Den carry the threshold,
   * density the default exponent w.
   */
  key(
    key: ContextKey,
    topicId: string,
    judge: string,
    s: SampleSettings,
  ): MeasureKeyColumns {
    return formatMeasureKey({
      method: key === "covZ" || key === "denZ" ? "crux" : "trec",
      measure: sampleMeasure(key, s),
      source: sampledContexts.source(s),
      judge,
      topics: { kind: "topic", id: topicId },
    });
  },
};

/** The measure of a key at the contexts' size. */
function sampleMeasure(key: ContextKey, s: SampleSettings): Measure {
  if (key === "covZ") return { name: "Cov", params: { tau: s.tau }, cutoff: s.size };
  if (key === "denZ") {
    return { name: "Den", params: { tau: s.tau, w: CRUX_DEFAULTS.w }, cutoff: s.size };
  }
  // `R(rel=3)` and the like: the name and its parameters as the measure step writes them.
  const text = CONTEXT_MEASURES[key];
  const m = /^([^(]+)(?:\((.*)\))?$/.exec(text)!;
  const params: Record<string, number> = {};
  for (const p of m[2]?.split(",") ?? []) {
    const [k, v] = p.split("=");
    params[k] = Number(v);
  }
  return { name: m[1], params, cutoff: s.size };
}
