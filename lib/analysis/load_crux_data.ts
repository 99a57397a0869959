/**
 * Reading what the analyses need from an experiment workspace.
 *
 * @module
 */
import type { ItemRatings } from "@lib/metrics/mod.ts";
import type { Backends } from "@lib/report/mod.ts";
import {
  defaultReportJudge,
  failedReportRuns,
  meanTopicId,
  passageJudge as choosePassageJudge,
  readMeasures,
  readPassageJudgments,
  readRatedItemKinds,
  readRatingCounts,
  readStatistics,
  readTopicDatasets,
  type Workspace,
} from "@lib/store/mod.ts";
import { countTokens } from "@lib/text/mod.ts";
import type { RunRow } from "@lib/types/mod.ts";
import type { CruxData } from "./types.ts";

/** Options of {@linkcode loadCruxData}. */
export interface LoadCruxDataOptions {
  /** Judge whose passage ratings are used. Default: the report judge if it rated passages, else the only passage judge, else `human`. */
  passageJudge?: string;
  /** Judge whose report ratings are used. Default: `defaultReportJudge` (the most ratings of generated reports). */
  reportJudge?: string;
  /** Passage qrels defining P*. Default `crux_pr`. */
  qrelsName?: string;
  /** Backends by role, merged over the inferred ones (judge = report judge, generator = report backend). */
  backends?: Backends;
}

/**
 * Reads topics (dataset = topic `source`), sub-questions, passage ratings of
 * one judge, report ratings of one judge, the P* qrels, passage token counts
 * (counted with the Llama-3.1 tokenizer when not stored), retrieval runs,
 * generations, the generation runs with failed reports and the stored
 * measure values of both judges into a
 * {@linkcode CruxData} the analyses read.
 *
 * @param ws An open workspace (read-only is enough).
 * @param opts Judges, qrels name and backend labels.
 * @returns The data, with the judges chosen.
 * @throws {RangeError} When the workspace has no passage ratings, several
 *   passage judges and none chosen, or a named judge rated nothing.
 * @example
 * ```ts
 * import { loadCruxData } from "@lib/analysis/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const data = await loadCruxData(ws);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadCruxData(
  ws: Workspace,
  opts: LoadCruxDataOptions = {},
): Promise<CruxData> {
  const counts = (await readRatingCounts(ws))
    .map((c) => ({ judge: c.judge, report: c.itemKind !== "passage" }));
  const reportJudge = opts.reportJudge ?? await defaultReportJudge(ws);
  if (opts.reportJudge && !counts.some((c) => c.report && c.judge === opts.reportJudge)) {
    throw new RangeError(
      `Cannot use report judge "${opts.reportJudge}": it rated no report in workspace "${ws.dir}"; judges of reports: ${
        [...new Set(counts.filter((c) => c.report).map((c) => c.judge))].join(", ") || "none"
      }`,
    );
  }
  // One rule for the passage judge (store's passageJudge): the one asked for,
  // the only one, or the report judge when it also rated passages.
  const passageJudge = await choosePassageJudge(
    ws,
    `analyse workspace "${ws.dir}"`,
    opts.passageJudge,
    {
      prefer: reportJudge,
    },
  );
  const topics = [...await readTopicDatasets(ws)].map(([topicId, dataset]) => ({
    topicId,
    dataset,
  }));
  const questions = new Map<string, string[]>();
  for (const q of await ws.questions({ kind: "subquestion" })) {
    questions.set(q.topicId, [...(questions.get(q.topicId) ?? []), q.questionId]);
  }
  const passages = await ws.passages();
  const tokens = new Map(passages.map((p) => [p.passageId, p.tokens ?? countTokens(p.text)]));
  // Passage judgments: the store's one reading (the measure stage's too).
  const passageRatings: ItemRatings[] = passageJudge
    ? (await readPassageJudgments(ws, passageJudge, `analyse workspace "${ws.dir}"`)).judgments
    : [];
  const reportRatings = new Map<string, Map<string, number>>();
  if (reportJudge) {
    // What an item is comes from rated_items (recorded whenever ratings are written).
    const kinds = await readRatedItemKinds(ws, reportJudge);
    for (const r of await ws.ratings({ judge: reportJudge })) {
      const kind = kinds.get(r.topicId)?.get(r.itemId);
      if (kind === undefined) {
        throw new RangeError(
          `Cannot analyse workspace "${ws.dir}": rated item "${r.itemId}" of judge "${reportJudge}" is not in rated_items; run \`crux workspace migrate --workspace ${ws.dir}\``,
        );
      }
      if (kind === "passage") continue;
      let m = reportRatings.get(r.itemId);
      if (!m) reportRatings.set(r.itemId, m = new Map());
      m.set(r.questionId, r.rating);
    }
  }
  const runs = new Map<string, RunRow[]>();
  for (const r of await ws.runRows()) {
    let list = runs.get(r.run);
    if (!list) runs.set(r.run, list = []);
    list.push(r);
  }
  const generations = await ws.generations();
  const qrels = (await ws.qrels(opts.qrelsName ?? "crux_pr")).filter((q) =>
    q.subtopic === undefined || q.subtopic === "0"
  );
  const generators = [
    ...new Set(
      generations.filter((g) => g.run !== "oracle-result" && g.backend).map((g) => g.backend!),
    ),
  ];
  const backends: Backends = {
    ...(reportJudge ? { judge: reportJudge } : { judge: passageJudge }),
    ...(generators.length ? { generator: generators.join(" + ") } : {}),
    ...opts.backends,
  };
  const failed = await failedReportRuns(ws);
  return {
    ...(failed.length
      ? {
        failedReports: new Map(
          failed.map((f) => [f.run, { condition: f.condition, topics: f.topics }]),
        ),
      }
      : {}),
    topics,
    questions,
    passageRatings,
    qrels,
    tokens,
    runs,
    generations,
    reportRatings,
    passageJudge,
    reportJudge,
    backends,
    // The values the measure and judge steps stored: the tables show these.
    measures: (await readMeasures(ws, {
      method: ["crux", "trec"],
      judge: [...new Set([passageJudge, reportJudge ?? passageJudge])],
      hasValue: true,
    }, ["run", "source", "measure", "topicId"]))
      .map(({ run, topicId, measure, judge, source, value, topics, topicSet }) => ({
        run,
        topicId,
        measure,
        judge,
        source,
        value: Number(value),
        topics,
        // Means state their topic set (per-topic rows name their topic already).
        ...(meanTopicId.is(topicId) && topicSet ? { topicSet } : {}),
      })),
    // The statistics the statistics stage computed from them: the tables show these.
    statistics: await readStatistics(ws),
  };
}
