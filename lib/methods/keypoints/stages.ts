/**
 * Key point recall (Long2RAG) as pipeline stages: extraction from each topic's
 * oracle passages P*, merging, entailment per answer run, and the scores into
 * the measure table.
 *
 * Rule: the key points of a topic are extracted from its oracle passages P*
 * (qrels `crux_pr`, grade 3), so every run of the topic (RAG pipelines, direct
 * prompting, the oracle context) is scored against the same key point set and
 * KPR is comparable across runs. KPP checks each response's statements against
 * the passages of its own context (`generations.context_ids`); runs without a
 * context (direct) have no KPP.
 *
 * @module
 */
import { previousParams } from "@lib/pipeline/mod.ts";
import { resolveRoleConfig } from "@lib/llm/mod.ts";
import {
  DEFAULT_EXTRACTION_ROUNDS,
  type EntailmentJudge,
  extractQuestionKeyPoints,
  type KeyPointExtractor,
  type KeyPointMerger,
  mergeQuestionKeyPoints,
  readStoredKeyPoints,
  storeKeyPoints,
} from "@lib/keypoints/mod.ts";
import {
  clearKeyPointJudgments,
  clearKeyPointStep,
  deleteMeasures,
  type Workspace,
} from "@lib/store/mod.ts";
import { basename } from "node:path";
import type { MethodStageContext, MethodStages, OpenBackends } from "@lib/pipeline/mod.ts";
import type { StageSpec } from "@lib/pipeline/mod.ts";
import { parseKeyPointSection } from "./section.ts";
import {
  judgeRun,
  measureKeyPointCounts,
  measureKeyPoints,
  oracleQuestions,
  storeProblems,
} from "./work.ts";
import { importStage } from "./import_stage.ts";

/** The `keypoints` section of an experiment config (every field optional). */
export interface KeyPointSection {
  /** Extraction rounds (further rounds ask for points missed so far). Default 2 (Long2RAG runs several). */
  rounds?: number;
  /** Offline extractor: key points per passage and round. Default 3. */
  perRound?: number;
  /** Offline merger: Jaccard threshold. Default 0.6. */
  mergeThreshold?: number;
  /** Offline entailment: share of key point terms in one sentence. Default 0.6. */
  entailThreshold?: number;
  /** Check the responses' statements against their contexts (KPP, KPF). Default true. */
  precision?: boolean;
  /** Re-asks after unparseable model output. Default 2. */
  reasks?: number;
  /** Qrels defining P*. Default `crux_pr`. */
  qrels?: string;
  /** Grade of P* in those qrels. Default 3. */
  oracleGrade?: number;
  /**
   * A key point file (`{"qid", "keypoints": [...]}`, qid = topic id) used instead of
   * extraction and merging; its points are judged as given (source `file:<name>`).
   */
  file?: string;
  /** Length buckets (token edges) of the analyses: by input (P*) and by response length. */
  buckets?: { input?: number[]; response?: number[] };
}

/** The key point method's backends: extraction, merging, entailment and (for KPP) support. */
export interface KeyPointBackends {
  extractor: KeyPointExtractor;
  merger: KeyPointMerger;
  entailer: EntailmentJudge;
  /** Support of a response's statements by its context; absent without `precision`. */
  supporter?: EntailmentJudge;
}

/**
 * The stages of a `keypoints` section: `judge:keypoints/extract` (after the
 * data stages), `judge:keypoints/merge` (or `judge:keypoints/import` with `file`), one `judge:keypoints/<run>` per answer
 * run (after that run's generation) and `measure:keypoints` (method
 * `keypoints`: KPR, KPP, KPF, kp_supported, kp_omitted, kp_contradicted per topic
 * and `all`; judge = the entailment judge, source = `extracted:<extractor>`;
 * and the extraction's counts `kp_documents` ... `kp_unusable` per topic and
 * their totals on topic `all`, run '' and judge '', see `keyPointCountRows`).
 * Offline backends are labelled `offline-...` in every judge and source.
 *
 * @param section The parsed section.
 * @param ctx The experiment's context.
 * @returns Stage instances in dependency order.
 */
function stages(
  section: KeyPointSection,
  ctx: MethodStageContext,
  backends: OpenBackends<KeyPointBackends>,
): StageSpec[] {
  const model = ctx.backend === "offline"
    ? undefined
    : resolveRoleConfig("judge", { config: ctx.llm, env: ctx.env }).model;
  const offline = ctx.backend === "offline";
  const extractorName = offline ? "offline-salient" : model!;
  const judgeName = offline ? "offline-lexical" : model!;
  const source = section.file ? `file:${basename(section.file)}` : `extracted:${extractorName}`;
  const precision = section.precision ?? true;
  const qrels = section.qrels ?? "crux_pr";
  const grade = section.oracleGrade ?? 3;
  const common = { backend: ctx.backend, model: model ?? null, reasks: section.reasks ?? 2 };
  let b: KeyPointBackends | undefined;
  const get = async (ws: Workspace) => (b ??= await backends(ws));
  const extract: StageSpec = {
    id: "judge:keypoints/extract",
    stage: "judge",
    version: 1,
    params: {
      ...common,
      rounds: section.rounds ?? DEFAULT_EXTRACTION_ROUNDS,
      perRound: section.perRound ?? 3,
      qrels,
      grade,
    },
    deps: [...ctx.dataStages],
    clear: async (ws) => {
      await clearKeyPointStep(ws, "extract");
    },
    run: async (ws) => {
      const questions = await oracleQuestions(ws, { qrels, grade });
      const { extractor } = await get(ws);
      const r = await extractQuestionKeyPoints(questions, extractor, {
        rounds: section.rounds ?? DEFAULT_EXTRACTION_ROUNDS,
        signal: ctx.signal,
        onProgress: ctx.onProgress,
      });
      const n = await storeKeyPoints(ws, r.keypoints, {
        level: "original",
        source,
        rounds: r.rounds,
      });
      await storeProblems(ws, r.problems, extractor.name);
      if (r.flagged) {
        ctx.onNote?.(
          "judge",
          `keypoints: ${r.flagged} key points have a span not found in their passage (kept, flagged)`,
        );
      }
      const passages = questions.reduce((s, q) => s + q.documents.length, 0);
      return `${n} key points from ${passages} P* passages of ${questions.length} topics ` +
        `(${extractor.name}); ${r.flagged} flagged (${r.unfoundSpans} spans not found); ` +
        `${r.problems.length} passages without a usable answer`;
    },
  };
  const merge: StageSpec = {
    id: "judge:keypoints/merge",
    stage: "judge",
    version: 1,
    params: { ...common, mergeThreshold: section.mergeThreshold ?? 0.6 },
    deps: [extract.id],
    clear: async (ws) => {
      await clearKeyPointStep(ws, "merge");
    },
    run: async (ws) => {
      const { keypoints } = await readStoredKeyPoints(ws, { level: "original", source });
      const questions = new Map(
        (await oracleQuestions(ws, { qrels, grade })).map((q) => [q.qid, q.question]),
      );
      const { merger } = await get(ws);
      const r = await mergeQuestionKeyPoints(keypoints, merger, { questions, signal: ctx.signal });
      const n = await storeKeyPoints(ws, r.keypoints, { level: "merged", source });
      await storeProblems(ws, r.problems, merger.name);
      const before = keypoints.reduce((s, q) => s + q.keypoints.length, 0);
      return `${before} key points merged into ${n} (${merger.name}); ${r.problems.length} topics kept unmerged`;
    },
  };
  const keys = section.file ? importStage(section.file, source, ctx) : merge;
  const judges: StageSpec[] = ctx.answerRuns.map((run, i) => ({
    id: `judge:keypoints/${run}`,
    stage: "judge",
    version: 1,
    params: { ...common, run, entailThreshold: section.entailThreshold ?? 0.6, precision },
    deps: [keys.id, ...(ctx.answerStages[i] ? [ctx.answerStages[i]] : [])],
    clear: async (ws) => {
      await clearKeyPointJudgments(ws, run);
    },
    run: async (ws) => {
      const { entailer, supporter } = await get(ws);
      return await judgeRun(ws, run, { source, entailer, supporter, signal: ctx.signal });
    },
  }));
  const measure: StageSpec = {
    id: "measure:keypoints",
    stage: "measure",
    // 2: the extraction's counts are stored rows too.
    version: 2,
    params: { runs: ctx.answerRuns, source, judge: judgeName, precision },
    deps: judges.map((j) => j.id),
    clear: async (ws) => {
      // Its rows now and those of its last run (another source), so none is stale.
      const before = await previousParams<{ source: string }>(ws, "measure:keypoints");
      await deleteMeasures(ws, {
        method: "keypoints",
        source: [source, before.source ?? source],
      });
    },
    run: async (ws) => {
      const r = await measureKeyPoints(ws, {
        runs: ctx.answerRuns,
        source,
        judge: judgeName,
        supportJudge: precision ? judgeName : undefined,
      });
      if (r.missing.length) {
        ctx.onNote?.(
          "measure",
          `keypoints: no response for ${r.missing.join(", ")} (left out; no value)`,
        );
      }
      const counts = await measureKeyPointCounts(ws, source);
      if (counts.failed.length) {
        ctx.onNote?.(
          "measure",
          `keypoints: extraction failed for a passage of ${
            counts.failed.join(", ")
          } (key points not counted)`,
        );
      }
      return `${r.rows} key point measure rows and ${counts.rows} count rows; ${r.summary}`;
    },
  };
  return [...(section.file ? [keys] : [extract, merge]), ...judges, measure];
}

/**
 * The key point method's part of an experiment config: section `keypoints`
 * (`{}` or `true` for the defaults; see {@linkcode KeyPointSection}).
 *
 * @example
 * ```ts
 * import { keypointStages } from "@lib/methods/keypoints/stages.ts";
 * const section = keypointStages.parse({ rounds: 2 }, "experiment.json");
 * section.rounds; // 2
 * // The stages are declared through the method registry, which opens the backends:
 * // `methodStages("keypoints", section, ctx)` of `@lib/methods/mod.ts`.
 * ```
 */
export const keypointStages: MethodStages<KeyPointSection, KeyPointBackends> = {
  key: "keypoints",
  parse: parseKeyPointSection,
  stages,
};
