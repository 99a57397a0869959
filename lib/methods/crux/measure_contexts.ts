/**
 * The measure step's values of the contexts the analyses compare: the context
 * each generation run's reports were written from (its stored context passages,
 * else the top-|P*| of its retrieval run) and the top-k of each retrieval run at
 * the analyses' context sizes, at every threshold the analyses show.
 *
 * @module
 */
import { CRUX_DEFAULTS, datasetMeanRows, oracleSets, valueTopicSet } from "@lib/metrics/mod.ts";
import { rankings } from "@lib/construct/mod.ts";
import {
  clearContextMeasures,
  contextSkipsKey,
  measureRow,
  readGenerationsByRun,
  readTopicDatasets,
  type Workspace,
  writeMeasures,
  writeMetaJson,
} from "@lib/store/mod.ts";
import {
  type ContextKey,
  contextKeyMeasure,
  contextSource,
  type ContextSpec,
  ORACLE_CONTEXT,
  scoreContexts,
  workspaceJudged,
} from "@lib/pipeline/mod.ts";

/** A generation run whose contexts are measured, with the retrieval run of topics without stored contexts. */
export interface GenerationContexts {
  generation: string;
  run?: string;
}

/** Options of {@linkcode measureContexts}. */
export interface MeasureContextsOptions {
  /** Judge of the passage ratings. */
  judge: string;
  /** Thresholds. Default `[CRUX_DEFAULTS.tau]`. */
  taus?: readonly number[];
  /** Density exponent. Default `CRUX_DEFAULTS.w`. */
  w?: number;
  /** Context sizes of the retrieval runs' rankings. Default `CRUX_DEFAULTS.contextCutoffs`. */
  cutoffs?: readonly (number | "oracle")[];
  /**
   * The context-evaluation table's runs and depths: measured at the first
   * threshold, with `RPrec(rel=3)` and the oracle context P* (run `P*`, in qrels
   * order). Default: none.
   */
  evaluation?: { runs: readonly string[]; cutoffs: readonly (number | "oracle")[] };
  /**
   * Store means (topic `all`). Default true; false while some topics' passage
   * ratings failed (a mean over the other topics is not kept).
   */
  means?: boolean;
  /** Notes (density left out). */
  onNote?: (message: string) => void;
}

const GENERATION_KEYS: ContextKey[] = ["covZ", "andcg", "denZ"];
const RANKING_KEYS: ContextKey[] = ["covZ", "andcg", "recall", "map", "ndcg", "precision", "denZ"];

/**
 * The measure step for the analyses' contexts. Per threshold X of `taus`:
 *
 * - each generation run's contexts (its reports' stored context passages, else
 *   the top-|P*| of `run`) with Cov, alpha-nDCG and Den at |P*|, stored under the
 *   generation run with source `contexts(tau=X)`;
 * - the rankings of the retrieval runs (`run` of each entry) cut at each of
 *   `cutoffs` with Cov, alpha-nDCG, R, AP and P (relevant = required, grade 3),
 *   nDCG and Den, stored under the retrieval run with source `ranking(tau=X)`.
 *
 * Per-topic rows and means (topic `all`, with the number of topics) are stored
 * by the passage judge, replacing the earlier values of these runs. Density of
 * a set of contexts holding a passage without a token count is left out and noted.
 *
 * @param ws The workspace.
 * @param sets Generation runs and their retrieval runs.
 * @param opts Judge, thresholds, w, cutoffs.
 * @returns Rows stored.
 * @example
 * ```ts
 * import { measureContexts } from "@lib/methods/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await measureContexts(ws, [{ generation: "rag-bm25", run: "bm25" }], { judge: "human", taus: [3, 5] });
 * ```
 */
export async function measureContexts(
  ws: Workspace,
  sets: readonly GenerationContexts[],
  opts: MeasureContextsOptions,
): Promise<number> {
  const taus = [...new Set(opts.taus ?? [CRUX_DEFAULTS.tau])];
  const w = opts.w ?? CRUX_DEFAULTS.w;
  const cutoffs = opts.cutoffs ?? CRUX_DEFAULTS.contextCutoffs;
  const { inputs } = await workspaceJudged(ws, { source: "selection", judge: opts.judge });
  // P* in the order the analyses read it (by topic and passage id): the oracle
  // context is a ranking, and alpha-nDCG depends on its order.
  const oracle = oracleSets(await ws.qrels("crux_pr"));
  const pipelineRuns = [...new Set(sets.flatMap((s) => (s.run === undefined ? [] : [s.run])))];
  const runs = [...new Set([...pipelineRuns, ...(opts.evaluation?.runs ?? [])])];
  const ranked = new Map<string, Map<string, string[]>>();
  for (const run of runs) {
    const rows = await ws.runRows(run);
    if (rows.length === 0 && !pipelineRuns.includes(run)) {
      throw new RangeError(
        `Cannot measure the contexts of run "${run}": the workspace has no run of that name; check analysis.contexts.runs`,
      );
    }
    ranked.set(run, rankings(rows));
  }
  const generated: ContextSpec[] = [];
  for (const s of sets) {
    const stored = (await readGenerationsByRun(ws, s.generation)).filter((g) =>
      g.contextIds?.length
    );
    const have = new Set(stored.map((g) => g.topicId));
    for (const g of stored) {
      generated.push({ name: s.generation, topicId: g.topicId, ids: g.contextIds! });
    }
    for (const [topicId, ids] of s.run === undefined ? [] : ranked.get(s.run)!) {
      const k = oracle.get(topicId)?.length ?? 0;
      if (!have.has(topicId) && k > 0) {
        generated.push({ name: s.generation, topicId, ids: ids.slice(0, k) });
      }
    }
  }
  const specsOf = (names: readonly string[]): ContextSpec[] =>
    names.flatMap((run) =>
      [...ranked.get(run)!].map(([topicId, ids]) => ({ name: run, topicId, ids }))
    );
  const ranking = specsOf(pipelineRuns);
  const skipped = new Map<string, Record<string, [string, string, string][]>>();
  const rows: ReturnType<typeof measureRow>[] = [];
  const store = (
    specs: readonly ContextSpec[],
    keys: readonly ContextKey[],
    cutoff: number | "oracle",
    tau: number,
    source: string,
  ) => {
    const scored = scoreContexts(inputs, specs, { keys, cutoff, tau, w });
    for (const x of scored.result?.skipped ?? []) {
      const bySource = skipped.get(x.run) ?? {};
      skipped.set(x.run, bySource);
      const key = contextKeyMeasure(keys[scored.result!.measures.indexOf(x.measure)], cutoff, w);
      (bySource[source] ??= []).push([x.topicId, key, x.reason]);
    }
    if (scored.leftOut !== undefined) {
      opts.onNote?.(`Den@${cutoff} (tau ${tau}) of ${source} left out: ${scored.leftOut}`);
    }
    const byKey = new Map<string, { sum: number; n: number }>();
    for (const r of scored.rows) {
      const measure = contextKeyMeasure(r.measure as ContextKey, cutoff, w);
      rows.push(measureRow({
        ...r,
        measure,
        ...split(measure),
        judge: opts.judge,
        source,
        topicSet: valueTopicSet({ measure, topicId: r.topicId, topics: null, tau }),
      }));
      const k = `${r.run}\u0000${measure}`;
      const a = byKey.get(k) ?? { sum: 0, n: 0 };
      byKey.set(k, { sum: a.sum + r.value, n: a.n + 1 });
    }
    for (const [k, a] of opts.means === false ? [] : byKey) {
      const [run, measure] = k.split("\u0000");
      rows.push(measureRow({
        run,
        topicId: "all",
        measure,
        ...split(measure),
        judge: opts.judge,
        source,
        value: a.sum / a.n,
        topics: a.n,
        topicSet: valueTopicSet({ measure, topicId: "all", topics: a.n, tau }),
      }));
    }
  };
  for (const tau of taus) {
    store(generated, GENERATION_KEYS, "oracle", tau, contextSource("contexts", tau));
    for (const cutoff of cutoffs) {
      store(ranking, RANKING_KEYS, cutoff, tau, contextSource("ranking", tau));
    }
  }
  if (opts.evaluation) {
    // The context-evaluation table: its runs at its depths, RPrec, and P* in qrels order.
    const tau = taus[0];
    const source = contextSource("ranking", tau);
    const oracleSpecs: ContextSpec[] = [...oracle].map(([topicId, ids]) => ({
      name: ORACLE_CONTEXT,
      topicId,
      ids,
    }));
    // One context at a time, as the table evaluates them (density left out per context).
    const groups = [
      ...opts.evaluation.runs.map((run) => ({ run, specs: specsOf([run]) })),
      { run: ORACLE_CONTEXT, specs: oracleSpecs },
    ];
    for (const { run, specs } of groups) {
      for (const cutoff of opts.evaluation.cutoffs) {
        // Already measured above with the pipelines (at the first threshold)?
        if (!(cutoffs.includes(cutoff) && pipelineRuns.includes(run))) {
          store(specs, RANKING_KEYS, cutoff, tau, source);
        }
      }
      store(specs, ["rprec" as ContextKey], "oracle", tau, source);
    }
  }
  // Beside each run mean, each dataset's mean when the experiment holds several.
  rows.push(...datasetMeanRows(rows, await readTopicDatasets(ws)));
  await ws.transaction(async () => {
    for (const name of new Set([...sets.map((s) => s.generation), ...runs, ORACLE_CONTEXT])) {
      await clearContextMeasures(ws, name);
    }
    await writeMeasures(ws, rows);
    for (const [run, sources] of skipped) {
      await writeMetaJson(ws, contextSkipsKey(run), { judge: opts.judge, sources });
    }
  });
  return rows.length;
}

/** `name`, `cutoff` and `method` columns of a context measure string. */
function split(measure: string): { name: string; cutoff: string; method: string } {
  const at = measure.lastIndexOf("@");
  const name = measure.slice(0, at).replace(/\(.*$/, "");
  return {
    name,
    cutoff: measure.slice(at + 1),
    method: name === "Cov" || name === "Den" ? "crux" : "trec",
  };
}
