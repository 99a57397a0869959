/**
 * What the explorer's topic pages show, read for every topic at once in a few
 * queries (rather than about ten per page): requests, sub-questions, typed
 * sub-questions, passage ratings of the passage judge, P* grades, each run's top
 * `k` passages and the report runs. A server keeps the result for as long as the
 * workspace file is unchanged, so a topic page asked for the first time is
 * rendered from memory.
 *
 * @module
 */
import type { Question } from "@lib/types/mod.ts";
import type { RankedPassage } from "./explorer_reads.ts";
import { passageJudge } from "./passage_judge.ts";
import type { Workspace } from "./workspace.ts";

/** One topic's rows for its explorer page. */
export interface TopicRows {
  request: string;
  /** Sub-questions, by ordinal. */
  questions: Question[];
  /** Typed sub-questions of every source, by source and ordinal. */
  typed: { source: string; ordinal: number; text: string; type: string | null }[];
  /** The passage judge whose ratings are shown (none: no heat rows). */
  judge?: string;
  /** That judge's ratings: passage -> sub-question -> rating. */
  ratings: Map<string, Map<string, number>>;
  /** P* grades (`crux_pr`), by passage. */
  grades: { docId: string; grade: number }[];
  /** Each retrieval run's top `k` passages, runs in name order (runs without any left out). */
  rankings: Map<string, RankedPassage[]>;
  /** Runs with a report of the topic, by name. */
  reports: string[];
}

/**
 * Every topic's rows for its explorer page, with each run's top `k` passages.
 *
 * @param ws The workspace.
 * @param k Passages per run and topic.
 * @returns Topic -> rows (every topic of `topics`).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importSample, openWorkspace, readExplorerTopicRows } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const rows = await readExplorerTopicRows(ws, 10);
 * assert.ok(rows.get("sample-01")!.request.length > 0);
 * ws.close();
 * ```
 */
export async function readExplorerTopicRows(
  ws: Workspace,
  k: number,
): Promise<Map<string, TopicRows>> {
  const out = new Map<string, TopicRows>();
  for (
    const t of await ws.query<{ topicId: string; request: string | null }>(
      "SELECT topic_id, request FROM topics ORDER BY topic_id",
    )
  ) {
    out.set(t.topicId, {
      request: t.request ?? "",
      questions: [],
      typed: [],
      ratings: new Map(),
      grades: [],
      rankings: new Map(),
      reports: [],
    });
  }
  const of = (topicId: string) => out.get(topicId);
  for (const q of await ws.questions({ kind: "subquestion" })) of(q.topicId)?.questions.push(q);
  for (const t of out.values()) t.questions.sort((a, b) => a.ordinal - b.ordinal);
  const typed = await ws.query<
    { topicId: string; source: string; ordinal: number; text: string; type: string | null }
  >(
    `SELECT topic_id, source, ordinal, text, type FROM subq_questions
     ORDER BY topic_id, source, ordinal`,
  ).catch(() => []);
  for (const { topicId, ...t } of typed) of(topicId)?.typed.push(t);
  // No passage judge (nothing rated yet) or several without a rule to choose: no heat rows.
  const judge = await passageJudge(ws, "show passage ratings").catch(() => undefined);
  if (judge !== undefined) {
    for (const t of out.values()) t.judge = judge;
    // One row per rated passage with its ratings in one string ("q1=4", separated
    // by control characters): tens of thousands of ratings come back as a few
    // thousand rows, and converting rows was most of the time.
    const reader = await ws.connection.runAndReadAll(
      `SELECT topic_id, item_id,
         string_agg(question_id || chr(31) || rating::VARCHAR, chr(30)) AS given
       FROM ratings WHERE judge = $1 GROUP BY topic_id, item_id`,
      [judge],
    );
    for (const [topicId, itemId, given] of reader.getRows()) {
      const ratings = of(String(topicId))?.ratings;
      if (!ratings) continue;
      const m = new Map<string, number>();
      for (const pair of String(given).split("\u001e")) {
        const at = pair.lastIndexOf("\u001f");
        m.set(pair.slice(0, at), Number(pair.slice(at + 1)));
      }
      ratings.set(String(itemId), m);
    }
  }
  for (
    const g of await ws.query<{ topicId: string; docId: string; grade: number }>(
      `SELECT topic_id, doc_id, grade FROM qrels WHERE name = 'crux_pr'
       AND coalesce(subtopic, '0') = '0'`,
    )
  ) of(g.topicId)?.grades.push({ docId: g.docId, grade: g.grade });
  // The ranking of `readTopicRanking`, for every run and topic in one query.
  const ranked = await ws.connection.runAndReadAll(
    `SELECT r.run, r.topic_id, r.doc_id, r.score::DOUBLE, p.text
     FROM runs r LEFT JOIN passages p ON p.passage_id = r.doc_id
     QUALIFY row_number() OVER (PARTITION BY r.run, r.topic_id
                                ORDER BY r.score DESC, encode(r.doc_id) DESC) <= $1
     ORDER BY r.run, r.topic_id, r.score DESC, encode(r.doc_id) DESC`,
    [k],
  );
  for (const [run, topicId, docId, score, text] of ranked.getRowsJS()) {
    const rankings = of(String(topicId))?.rankings;
    if (!rankings) continue;
    let list = rankings.get(String(run));
    if (!list) rankings.set(String(run), list = []);
    list.push({
      rank: list.length + 1,
      docId: String(docId),
      score: Number(score),
      ...(text === null ? {} : { text: String(text) }),
    });
  }
  for (
    const g of await ws.query<{ topicId: string; run: string }>(
      "SELECT topic_id, run FROM generations ORDER BY topic_id, run",
    )
  ) of(g.topicId)?.reports.push(g.run);
  return out;
}
