/**
 * Reads for browsing one experiment: the provenance of its runs and stages, a
 * topic's rankings, and every method's verdicts on one report.
 *
 * @module
 */
import type { Rating } from "@lib/types/mod.ts";
import type { WorkspaceLike } from "./workspace_reads.ts";

/** A retrieval or generated run with how it was made. */
export interface RunProvenance {
  run: string;
  /** `retrieval` (run_info) or `generated` (generation_info). */
  role: "retrieval" | "generated";
  /** Retrieval kind (bm25, dense, fusion, file, ...) or generation condition (rag, direct, ...). */
  kind: string;
  /** Parameters (retrieval) as JSON text; the backend (generated). */
  detail: string;
  /** Source runs (retrieval) or the context run (generated). */
  sources: string[];
  /** Topics with rows. */
  topics: number;
  createdAt: string;
}

/** A stage instance of the pipeline and its last outcome. */
export interface StageRecord {
  id: string;
  stage: string;
  summary: string;
  params: string;
  finishedAt: string;
}

/** One ranked passage of a run for a topic. */
export interface RankedPassage {
  rank: number;
  docId: string;
  score: number;
  /** Passage text, undefined when the workspace has none. */
  text?: string;
}

/** One method's verdict on one question/nugget/key point for a report. */
export interface StoredVerdict {
  /** `nuggets`, `keypoints`. */
  method: string;
  /** Nugget ordinal or key point id. */
  id: string;
  /** The nugget or key point text. */
  text: string;
  /** Nugget importance (vital/okay) when known. */
  importance?: string;
  /** The label given (support/partial/not; yes/no/neutral ...). */
  label: string;
  judge: string;
}

/** One coverage judgment of a sub-question for a text (typed sub-question method). */
export interface CoverageVerdict {
  subQuestion: string;
  answered: boolean | null;
  span: string | null;
  status: string;
  judge: string;
}

/**
 * Every run of the workspace with its provenance, retrieval runs first, each in
 * name order.
 *
 * @param ws The workspace.
 * @returns The runs.
 * @example
 * ```ts
 * import { readRunProvenance } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * for (const r of await readRunProvenance(ws)) console.log(r.run, r.kind);
 * ```
 */
export async function readRunProvenance(ws: WorkspaceLike): Promise<RunProvenance[]> {
  const retrieval = await ws.query<Omit<RunProvenance, "role">>(
    `SELECT r.run, coalesce(i.kind, 'imported') AS kind, coalesce(CAST(i.params AS VARCHAR), '') AS detail,
            coalesce(i.sources, []) AS sources, r.topics,
            coalesce(CAST(i.created_at AS VARCHAR), '') AS "createdAt"
     FROM (SELECT run, count(DISTINCT topic_id)::INTEGER AS topics FROM runs GROUP BY run) r
     LEFT JOIN run_info i USING (run) ORDER BY r.run`,
  );
  const generated = await ws.query<Omit<RunProvenance, "role">>(
    `SELECT g.run, coalesce(i.condition, 'unknown') AS kind, coalesce(i.backend, '') AS detail,
            CASE WHEN i.context_run IS NULL THEN [] ELSE [i.context_run] END AS sources, g.topics,
            coalesce(CAST(i.created_at AS VARCHAR), '') AS "createdAt"
     FROM (SELECT run, count(*)::INTEGER AS topics FROM generations GROUP BY run) g
     LEFT JOIN generation_info i USING (run) ORDER BY g.run`,
  );
  return [
    ...retrieval.map((r) => ({ ...r, role: "retrieval" as const, sources: [...r.sources] })),
    ...generated.map((r) => ({ ...r, role: "generated" as const, sources: [...r.sources] })),
  ];
}

/**
 * The pipeline's stage instances with their last summaries, in stage order of completion.
 *
 * @param ws The workspace.
 * @returns The stage records.
 * @example
 * ```ts
 * import { readStageRecords } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readStageRecords(ws)).map((s) => s.id);
 * ```
 */
export async function readStageRecords(ws: WorkspaceLike): Promise<StageRecord[]> {
  return await ws.query<StageRecord>(
    `SELECT key AS id, payload->>'stage' AS stage, coalesce(payload->>'summary', '') AS summary,
            coalesce(CAST(payload->'params' AS VARCHAR), '') AS params,
            coalesce(CAST(recorded_at AS VARCHAR), '') AS "finishedAt"
     FROM memo WHERE kind = 'stage' ORDER BY recorded_at, key`,
  );
}

/**
 * The top `k` passages of a run for one topic in the evaluator's order (score
 * descending, ties by id descending), with their texts when known.
 *
 * @param ws The workspace.
 * @param query Run, topic and `k`.
 * @returns The ranked passages.
 * @example
 * ```ts
 * import { readTopicRanking } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readTopicRanking(ws, { run: "bm25", topicId: "t1", k: 10 });
 * ```
 */
export async function readTopicRanking(
  ws: WorkspaceLike,
  query: { run: string; topicId: string; k: number },
): Promise<RankedPassage[]> {
  const rows = await ws.query<{ docId: string; score: number; text: string | null }>(
    `SELECT r.doc_id AS "docId", r.score, p.text
     FROM runs r LEFT JOIN passages p ON p.passage_id = r.doc_id
     WHERE r.run = $1 AND r.topic_id = $2
     ORDER BY r.score DESC, encode(r.doc_id) DESC LIMIT $3`,
    [query.run, query.topicId, query.k],
  );
  return rows.map((r, i) => ({
    rank: i + 1,
    docId: r.docId,
    score: r.score,
    ...(r.text === null ? {} : { text: r.text }),
  }));
}

/**
 * The nugget and key point verdicts on one run's report for a topic, by method.
 *
 * @param ws The workspace.
 * @param query Run and topic.
 * @returns The verdicts, nuggets first (by ordinal), then key points (by id).
 * @example
 * ```ts
 * import { readReportVerdicts } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readReportVerdicts(ws, { run: "rag-bm25", topicId: "t1" });
 * ```
 */
export async function readReportVerdicts(
  ws: WorkspaceLike,
  query: { run: string; topicId: string },
): Promise<StoredVerdict[]> {
  const nuggets = await ws.query<StoredVerdict>(
    `SELECT 'nuggets' AS method, CAST(a.ordinal AS VARCHAR) AS id, n.text, n.importance,
            coalesce(a.label, 'unparsed') AS label, a.judge
     FROM nugget_assignments a
     JOIN nuggets n ON n.topic_id = a.topic_id AND n.origin = a.origin AND n.ordinal = a.ordinal
     WHERE a.run = $1 AND a.topic_id = $2 ORDER BY a.judge, a.ordinal`,
    [query.run, query.topicId],
  );
  const keypoints = await ws.query<StoredVerdict>(
    `SELECT DISTINCT 'keypoints' AS method, l.keypoint_id AS id, k.text,
            coalesce(l.label, l.status) AS label, l.judge
     FROM keypoint_labels l
     JOIN keypoints k ON k.topic_id = l.topic_id AND k.keypoint_id = l.keypoint_id
     WHERE l.run = $1 AND l.topic_id = $2 ORDER BY l.judge, l.keypoint_id`,
    [query.run, query.topicId],
  );
  return [...nuggets, ...keypoints].map((v) =>
    v.importance === null || v.importance === undefined
      ? { method: v.method, id: v.id, text: v.text, label: v.label, judge: v.judge }
      : v
  );
}

/**
 * The typed sub-question coverage judgments of a text (keyed by the SHA-256 of
 * the text, as the coverage step stores them).
 *
 * @param ws The workspace.
 * @param textKey SHA-256 hex of the judged text.
 * @returns The judgments, by judge and sub-question.
 * @example
 * ```ts
 * import { readCoverageVerdicts } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readCoverageVerdicts(ws, "ab12...");
 * ```
 */
export async function readCoverageVerdicts(
  ws: WorkspaceLike,
  textKey: string,
): Promise<CoverageVerdict[]> {
  return await ws.query<CoverageVerdict>(
    `SELECT sub_question AS "subQuestion", answered, span, coalesce(status, '') AS status, judge
     FROM subq_coverage WHERE text_key = $1 ORDER BY judge, sub_question`,
    [textKey],
  );
}

/**
 * The CRUX answerability ratings of one run's report for a topic (every judge),
 * found through `rated_items`; the human summary (`oracle-result`) is the
 * topic's reference item when it has no report item.
 *
 * @param ws The workspace.
 * @param query Run and topic.
 * @returns The ratings, by judge and question.
 * @example
 * ```ts
 * import { readReportRatings } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readReportRatings(ws, { run: "rag-bm25", topicId: "t1" });
 * ```
 */
export async function readReportRatings(
  ws: WorkspaceLike,
  query: { run: string; topicId: string },
): Promise<Rating[]> {
  return await ws.query<Rating>(
    `SELECT r.topic_id AS "topicId", r.item_id AS "itemId", r.question_id AS "questionId",
            r.rating, r.judge
     FROM ratings r JOIN rated_items i ON i.topic_id = r.topic_id AND i.item_id = r.item_id AND i.judge = r.judge
     WHERE i.topic_id = $2 AND (
       (i.item_kind = 'report' AND i.run = $1) OR
       ($1 = 'oracle-result' AND i.item_kind = 'reference' AND NOT EXISTS (
         SELECT 1 FROM rated_items x WHERE x.topic_id = $2 AND x.item_kind = 'report' AND x.run = $1)))
     ORDER BY r.judge, r.question_id`,
    [query.run, query.topicId],
  );
}

/** A topic in the explorer's list. */
export interface TopicListing {
  topicId: string;
  request: string;
  /** CRUX sub-questions of the topic. */
  questions: number;
}

/**
 * Every topic with its request and number of CRUX sub-questions, in id order.
 *
 * @param ws The workspace.
 * @returns The topics.
 * @example
 * ```ts
 * import { readTopicListing } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readTopicListing(ws)).length;
 * ```
 */
export async function readTopicListing(ws: WorkspaceLike): Promise<TopicListing[]> {
  return await ws.query<TopicListing>(
    `SELECT t.topic_id AS "topicId", coalesce(t.request, '') AS request,
            (SELECT count(*)::INTEGER FROM questions q
             WHERE q.topic_id = t.topic_id AND q.kind = 'subquestion') AS questions
     FROM topics t ORDER BY t.topic_id`,
  );
}

/**
 * The generated runs that hold a report for a topic, in name order.
 *
 * @param ws The workspace.
 * @param topicId The topic.
 * @returns Run names.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readReportRuns } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * // reports on one topic (normally written by the generate stage)
 * await ws.upsert("generations", ["rag-bm25", "direct", "oracle-context"].map((run) => (
 *   { run, topicId: "sample-01", text: "A report." }
 * )));
 * assert.deepEqual(await readReportRuns(ws, "sample-01"), ["direct", "oracle-context", "rag-bm25"]);
 * ```
 */
export async function readReportRuns(ws: WorkspaceLike, topicId: string): Promise<string[]> {
  return (await ws.query<{ run: string }>(
    "SELECT run FROM generations WHERE topic_id = $1 ORDER BY run",
    [topicId],
  )).map((r) => r.run);
}

/**
 * The types of a topic's sub-questions as stored by the typing step
 * (`subq_questions`), by source: none when the workspace has no such table.
 *
 * @param ws The workspace.
 * @param topicId The topic.
 * @returns Source, ordinal, text and type (null until typed) of each.
 * @example
 * ```ts
 * import { readTopicTypes } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readTopicTypes(ws, "sample-01"); // [] until sub-questions are typed
 * ws.close();
 * ```
 */
export async function readTopicTypes(
  ws: WorkspaceLike,
  topicId: string,
): Promise<{ source: string; ordinal: number; text: string; type: string | null }[]> {
  return await ws.query<{ source: string; ordinal: number; text: string; type: string | null }>(
    `SELECT source, ordinal, text, type FROM subq_questions WHERE topic_id = $1
     ORDER BY source, ordinal`,
    [topicId],
  ).catch(() => []);
}

/**
 * A topic's report request, or undefined when the topic does not exist.
 *
 * @param ws The workspace.
 * @param topicId The topic.
 * @returns The topic id and its request.
 * @example
 * ```ts
 * import { importSample, openWorkspace, readTopicRequest } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readTopicRequest(ws, "sample-01"))?.request; // the request's text
 * ws.close();
 * ```
 */
export async function readTopicRequest(
  ws: WorkspaceLike,
  topicId: string,
): Promise<{ topicId: string; request: string } | undefined> {
  const [topic] = await ws.query<{ topicId: string; request: string }>(
    "SELECT topic_id, request FROM topics WHERE topic_id = $1",
    [topicId],
  );
  return topic;
}

/**
 * The plain grades (no subtopic) of one topic in one named qrels set.
 *
 * @param ws The workspace.
 * @param name The qrels name (e.g. `crux_pr`).
 * @param topicId The topic.
 * @returns Document ids and grades.
 * @example
 * ```ts
 * import { importSample, openWorkspace, readTopicGrades } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readTopicGrades(ws, "crux_pr", "sample-01"); // [] until a selection is stored
 * ws.close();
 * ```
 */
export async function readTopicGrades(
  ws: WorkspaceLike,
  name: string,
  topicId: string,
): Promise<{ docId: string; grade: number }[]> {
  return await ws.query<{ docId: string; grade: number }>(
    `SELECT doc_id, grade FROM qrels WHERE name = $1 AND topic_id = $2
     AND coalesce(subtopic, '0') = '0'`,
    [name, topicId],
  );
}

/**
 * The retrieval runs that rank something for one topic, by name.
 *
 * @param ws The workspace.
 * @param topicId The topic.
 * @returns Run names in order.
 * @example
 * ```ts
 * import { importSample, openWorkspace, readTopicRunNames } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readTopicRunNames(ws, "sample-01"); // [] until a run is stored
 * ws.close();
 * ```
 */
export async function readTopicRunNames(ws: WorkspaceLike, topicId: string): Promise<string[]> {
  return (await ws.query<{ run: string }>(
    "SELECT DISTINCT run FROM runs WHERE topic_id = $1 ORDER BY run",
    [topicId],
  )).map((r) => r.run);
}

/**
 * The generated runs of the workspace (runs with at least one report), by name.
 *
 * @param ws The workspace.
 * @returns Run names in order.
 * @example
 * ```ts
 * import { importSample, openWorkspace, readGenerationRunNames } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readGenerationRunNames(ws); // [] until reports are generated
 * ws.close();
 * ```
 */
export async function readGenerationRunNames(ws: WorkspaceLike): Promise<string[]> {
  return (await ws.query<{ run: string }>("SELECT DISTINCT run FROM generations ORDER BY run"))
    .map((r) => r.run);
}
