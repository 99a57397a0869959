/**
 * Writing evaluation results into the measure table `measures`.
 *
 * @module
 */
import {
  CRUX_DEFAULTS,
  datasetMeanRows,
  type EvaluationResult,
  parseMeasure,
  valueTopicSet,
} from "@lib/metrics/mod.ts";
import { measureRow, readTopicDatasets, type Workspace, writeMeasures } from "@lib/store/mod.ts";

/** Relevance measures (method trec); the others (Cov, Den) are method crux. */
const RELEVANCE = new Set(["P", "R", "AP", "RPrec", "RR", "nDCG", "alpha_nDCG", "judged"]);

/**
 * Stores an evaluation's per-topic and aggregate values in `measures`, keyed by
 * run, topic (`all` = aggregate), measure (the key as printed), judge and
 * source, replacing earlier rows of those keys. `name` and `cutoff` split the
 * measure; `method` is `trec` for relevance measures and `crux` for Cov and Den.
 * Every row carries the source: relevance measures take relevance from it, Cov
 * and Den take P* from it (density and `@oracle` cutoffs differ between sources);
 * and its topic set (`valueTopicSet`): its topic, or for a mean the answerable
 * topics at the measure's tau (Cov, Den) or the judged topics. With topics of
 * several datasets, each mean has each dataset's mean beside it (topic
 * `all:<dataset>`, see `datasetMeanRows`).
 *
 * @param ws The workspace.
 * @param result The evaluation.
 * @param opts The judge of the ratings and the relevance source used.
 * @returns Rows stored.
 * @example
 * ```ts
 * import { storeMeasures, workspaceJudged } from "@lib/pipeline/mod.ts";
 * import { evaluate } from "@lib/metrics/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const { inputs, judge, source } = await workspaceJudged(ws);
 * await storeMeasures(ws, evaluate(await ws.runRows("bm25"), ["Cov@10"], inputs), { judge, source });
 * ```
 */
export async function storeMeasures(
  ws: Workspace,
  result: EvaluationResult,
  opts: { judge: string; source: string },
): Promise<number> {
  const counts = new Map(result.runs.map((r) => [r.run, r.counts]));
  const rows = [...result.perTopic, ...result.aggregates].filter((r) => Number.isFinite(r.value))
    .map((r) => {
      const m = parseMeasure(r.measure);
      const topics = r.topicId === "all" ? counts.get(r.run)?.[r.measure] ?? null : null;
      return measureRow({
        run: r.run,
        topicId: r.topicId,
        measure: r.measure,
        name: m.name,
        cutoff: m.cutoff === undefined ? "" : String(m.cutoff),
        method: RELEVANCE.has(m.name) ? "trec" : "crux",
        judge: opts.judge,
        source: opts.source,
        value: r.value,
        topics,
        topicSet: valueTopicSet({
          measure: r.measure,
          topicId: r.topicId,
          topics,
          tau: CRUX_DEFAULTS.tau,
        }),
      });
    });
  // Beside each run mean, each dataset's mean when the experiment holds several.
  rows.push(...datasetMeanRows(rows, await readTopicDatasets(ws)));
  await writeMeasures(ws, rows);
  return rows.length;
}
