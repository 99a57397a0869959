/**
 * Reads of the rating table `ratings` (graded answerability of items against
 * sub-questions, by judge) beyond the plain rows of `readRatings`.
 *
 * @module
 */
import { readRatings, readWorkspaceSubquestions, type WorkspaceLike } from "./workspace_reads.ts";
import { passageOrdinal } from "./passage_ordinal.ts";

/**
 * The (topic, item, sub-question) triples a judge has a usable rating for (0-5;
 * failed pairs have no row and unparsed ones rate -1, so both are asked again).
 * An item rated under one topic is not rated under another.
 *
 * @param ws The workspace.
 * @param judge The judge.
 * @returns Keys made by {@linkcode ratingKey}.
 * @example
 * ```ts
 * import { ratedPairs, ratingKey } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await ratedPairs(ws, "human")).has(ratingKey("t", "t:0#0", "t#q1"));
 * ```
 */
export async function ratedPairs(ws: WorkspaceLike, judge: string): Promise<Set<string>> {
  const rows = await ws.query<{ k: string }>(
    `SELECT topic_id || chr(0) || item_id || chr(0) || question_id AS k FROM ratings
     WHERE judge = $1 AND rating >= 0`,
    [judge],
  );
  return new Set(rows.map((r) => r.k));
}

/**
 * The key of one rating of a judge: its topic, item and sub-question (the keys of
 * {@linkcode ratedPairs}).
 *
 * @param topicId The topic the item is rated under.
 * @param itemId The item (passage, report).
 * @param questionId The sub-question.
 * @returns The three joined by NUL.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ratingKey } from "@lib/store/mod.ts";
 * assert.equal(ratingKey("t", "t:0#0", "t#q1"), "t\0t:0#0\0t#q1");
 * ```
 */
export function ratingKey(topicId: string, itemId: string, questionId: string): string {
  return `${topicId}\0${itemId}\0${questionId}`;
}

/** How many ratings one judge has of one kind of item. */
export interface RatingCount {
  judge: string;
  /** What the items are: `passage`, `report` or `reference` (from `rated_items`). */
  itemKind: string;
  /** Ratings (unparsed ones, -1, included). */
  n: number;
}

/**
 * How many ratings each judge has of each kind of item (passages, reports of
 * runs, reference summaries, by `rated_items`), ordered by judge and kind: which
 * judges rated passages (and how much, for choosing the judge of the
 * construction matrix) and which rated reports.
 *
 * @param ws The workspace.
 * @returns One row per judge and kind it rated.
 * @example
 * ```ts
 * import { importSample, openWorkspace, readRatingCounts } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readRatingCounts(ws)).filter((c) => c.itemKind === "passage"); // [{ judge: "human", ... }]
 * ```
 */
export async function readRatingCounts(ws: WorkspaceLike): Promise<RatingCount[]> {
  const rows = await ws.query<RatingCount>(
    `SELECT judge, i.item_kind, count(*) AS n FROM ratings JOIN rated_items i USING (topic_id, item_id, judge)
     GROUP BY ALL ORDER BY judge, item_kind`,
  );
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/**
 * Every rating of one judge by topic and item: topic id -> item id -> question
 * id -> rating (-1 = unparsed). An item rated under two topics appears under
 * each with that topic's ratings.
 *
 * @param ws The workspace.
 * @param judge The judge.
 * @returns The judge's ratings grouped by topic, then item.
 * @example
 * ```ts
 * import { ratingsByItem } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await ratingsByItem(ws, "human")).get("t")?.get("t:0#0")?.get("t#q1"); // e.g. 4
 * ```
 */
export async function ratingsByItem(
  ws: WorkspaceLike,
  judge: string,
): Promise<Map<string, Map<string, Map<string, number>>>> {
  const out = new Map<string, Map<string, Map<string, number>>>();
  for (const r of await readRatings(ws, judge)) {
    let topic = out.get(r.topicId);
    if (!topic) out.set(r.topicId, topic = new Map());
    let row = topic.get(r.itemId);
    if (!row) topic.set(r.itemId, row = new Map());
    row.set(r.questionId, r.rating);
  }
  return out;
}

/** One sub-question of a topic and one judge's rating of a report against it. */
export interface ReportQuestionRating {
  topicId: string;
  /** The rating, or null when the judge did not rate this sub-question for the report. */
  rating: number | null;
}

/**
 * One judge's ratings of one run's reports, one row per sub-question of every
 * topic (ordered by topic, then the sub-question's ordinal), null where the
 * judge has no rating. The report of a topic is the item `{topic}:report` for
 * the run `oracle-result` (the reference summary) and `{topic}:report:{run}`
 * for a generated run.
 *
 * @param ws The workspace.
 * @param judge The judge of the report ratings.
 * @param run The generation run.
 * @returns The rows.
 * @example
 * ```ts
 * import { readReportQuestionRatings } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const rows = await readReportQuestionRatings(ws, "gpt-4o", "rag-bm25");
 * ```
 */
export async function readReportQuestionRatings(
  ws: WorkspaceLike,
  judge: string,
  run: string,
): Promise<ReportQuestionRating[]> {
  const reference = run === "oracle-result";
  const item = reference ? "q.topic_id || ':report'" : "q.topic_id || ':report:' || $2";
  return await ws.query<ReportQuestionRating>(
    `SELECT q.topic_id, r.rating FROM questions q
     LEFT JOIN ratings r ON r.topic_id = q.topic_id AND r.question_id = q.question_id
       AND r.judge = $1 AND r.item_id = ${item}
     WHERE q.kind = 'subquestion' ORDER BY q.topic_id, q.ordinal`,
    reference ? [judge] : [judge, run],
  );
}

/** One passage's ratings against every sub-question of its topic. */
export interface PassageJudgment {
  topicId: string;
  itemId: string;
  /** One rating per sub-question of the topic, in ordinal order; 0 where the judge gave none. */
  ratings: number[];
}

/** A judge's passage judgments with the stored token counts of the passages. */
export interface PassageJudgments {
  /** The judgments, ordered by the passage's `j` (its ordinal), then by id. */
  judgments: PassageJudgment[];
  /**
   * Stored token count of every passage of the workspace (null: text stored but
   * never counted). A rated passage absent from the map has no text in the workspace.
   */
  tokens: Map<string, number | null>;
}

/**
 * The one reading of a judge's passage judgments, shared by the measure stage,
 * `crux measure`, `crux eval` and the analyses. Rules:
 *
 * - Items: every (topic, item) the judge rated that `rated_items` records as a
 *   passage (reports and the reference summary are left out), on a topic that has
 *   sub-questions; a rating of an item missing from `rated_items` is an error
 *   (the workspace predates it and needs migrating). A passage rated under two
 *   topics gives one judgment per topic, each from that topic's ratings only; a
 *   passage rated only under topic B is unjudged for topic A.
 * - Ratings: one per sub-question of the topic in ordinal order; a sub-question
 *   the judge did not rate (or whose rating is null) counts as 0.
 * - Missing text: a rated passage keeps its ratings whether or not its text was
 *   imported. Token counts are only ever the stored ones, never counted here: a
 *   passage without text is absent from `tokens`, one with text but no count
 *   maps to null, and a density measure that asks for either fails naming it.
 *
 * @param ws The workspace.
 * @param judge The judge of the passage ratings (see `passageJudge`).
 * @param what What reads them, for the error (e.g. "evaluate passage contexts").
 * @returns The judgments and the stored token counts.
 * @throws {RangeError} When a rating's item is not in `rated_items`.
 * @example
 * ```ts
 * import { readPassageJudgments } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const { judgments, tokens } = await readPassageJudgments(ws, "human", "measure");
 * ```
 */
export async function readPassageJudgments(
  ws: WorkspaceLike,
  judge: string,
  what: string,
): Promise<PassageJudgments> {
  const questions = await readWorkspaceSubquestions(ws);
  const rows = await ws.query<
    {
      topicId: string;
      itemId: string;
      questionId: string;
      rating: number | null;
      kind: string | null;
    }
  >(
    `SELECT r.topic_id AS "topicId", r.item_id AS "itemId", r.question_id AS "questionId",
       r.rating, i.item_kind AS kind
     FROM ratings r LEFT JOIN rated_items i USING (topic_id, item_id, judge) WHERE r.judge = $1`,
    [judge],
  );
  const unlisted = rows.find((r) => r.kind === null);
  if (unlisted) {
    throw new RangeError(
      `Cannot ${what}: rated item "${unlisted.itemId}" of judge "${judge}" is not in rated_items; run \`crux workspace migrate\` on the workspace`,
    );
  }
  // Keyed by (topic, item): a passage rated under two topics is two judgments.
  const byItem = new Map<
    string,
    { topicId: string; itemId: string; ratings: Map<string, number | null> }
  >();
  for (const r of rows) {
    if (r.kind !== "passage") continue;
    const key = `${r.topicId}\0${r.itemId}`;
    let m = byItem.get(key);
    if (!m) byItem.set(key, m = { topicId: r.topicId, itemId: r.itemId, ratings: new Map() });
    m.ratings.set(r.questionId, r.rating);
  }
  const judgments = [...byItem.values()].filter((m) => questions.has(m.topicId))
    .sort((a, b) =>
      passageOrdinal(a.itemId) - passageOrdinal(b.itemId) ||
      (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0) ||
      (a.topicId < b.topicId ? -1 : a.topicId > b.topicId ? 1 : 0)
    )
    .map((m) => ({
      topicId: m.topicId,
      itemId: m.itemId,
      ratings: questions.get(m.topicId)!.map((q) => m.ratings.get(q.questionId) ?? 0),
    }));
  const tokens = new Map(
    (await ws.query<{ passageId: string; tokens: number | null }>(
      `SELECT passage_id AS "passageId", tokens FROM passages`,
    )).map((p) => [p.passageId, p.tokens]),
  );
  return { judgments, tokens };
}

/** Judges named `<judge>#s<i>`: samples of the judge-variance stage. */
const SAMPLE_JUDGE = "regexp_matches(judge, '#s[0-9]+$')";

/**
 * Deletes the ratings and rated items of sample judges (`<judge>#s<i>`, made by
 * the judge-variance stage); every other judge's stay.
 *
 * @param ws The workspace.
 * @example
 * ```ts
 * import { clearSampleJudgeRatings } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearSampleJudgeRatings(ws);
 * ```
 */
export async function clearSampleJudgeRatings(ws: WorkspaceLike): Promise<void> {
  await ws.exec(`DELETE FROM ratings WHERE ${SAMPLE_JUDGE}`);
  await ws.exec(`DELETE FROM rated_items WHERE ${SAMPLE_JUDGE}`);
}

/**
 * Deletes one judge's ratings of a generated run's reports, found by what the
 * rated items are (kind `report` of that run), or, for `oracle-result`, of the
 * reference summaries (kind `reference`). The rated items stay.
 *
 * @param ws The workspace.
 * @param judge The judge.
 * @param run The generated run (`oracle-result`: the reference summaries).
 * @example
 * ```ts
 * import { clearReportRatings } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearReportRatings(ws, "llm:judge-model", "rag-bm25");
 * ```
 */
export async function clearReportRatings(
  ws: WorkspaceLike,
  judge: string,
  run: string,
): Promise<void> {
  const reference = run === "oracle-result";
  await ws.exec(
    `DELETE FROM ratings WHERE judge = $1 AND EXISTS (SELECT 1 FROM rated_items i
       WHERE i.judge = $1 AND i.topic_id = ratings.topic_id AND i.item_id = ratings.item_id AND ${
      reference ? "i.item_kind = 'reference'" : "i.item_kind = 'report' AND i.run = $2"
    })`,
    reference ? [judge] : [judge, run],
  );
}
