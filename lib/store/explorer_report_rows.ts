/**
 * What the explorer's report pages show, read for every report at once in a few
 * queries (rather than about seven per page): each report, its topic's
 * sub-questions and typed sub-questions, the typed coverage verdicts on its text,
 * its CRUX answerability ratings, and its nugget and key point verdicts. A server
 * keeps the result for as long as the workspace file is unchanged, so a report
 * page asked for the first time is rendered from memory.
 *
 * @module
 */
import type { Generation, Question, Rating } from "@lib/types/mod.ts";
import type { CoverageVerdict, StoredVerdict } from "./explorer_reads.ts";
import type { Workspace } from "./workspace.ts";

/** One report's rows for its explorer page (each list as its per-report reader orders it). */
export interface ReportRows {
  report: Generation;
  /** The topic's sub-questions, by ordinal. */
  questions: Question[];
  /** Typed coverage verdicts on the report's text (`readCoverageVerdicts`), by judge and sub-question. */
  coverage: CoverageVerdict[];
  /** The topic's typed sub-questions (`readTopicTypes`), by source and ordinal. */
  types: { source: string; ordinal: number; text: string; type: string | null }[];
  /** CRUX answerability ratings of the report (`readReportRatings`), by judge and question. */
  ratings: Rating[];
  /** Nugget verdicts (by judge, ordinal), then key point verdicts (by judge, id). */
  verdicts: StoredVerdict[];
}

/** SHA-256 hex of a text, the key under which the coverage step stores its verdicts. */
async function textKey(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Appends `value` to the list under `key` of `map`. */
function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Every report's rows for its explorer page.
 *
 * @param ws The workspace.
 * @returns Topic -> run -> rows (every stored report).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importSample, openWorkspace, readExplorerReportRows } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await ws.upsert("generations", [{ run: "rag-bm25", topicId: "sample-01", text: "A report." }]);
 * const rows = await readExplorerReportRows(ws);
 * assert.equal(rows.get("sample-01")!.get("rag-bm25")!.report.text, "A report.");
 * ws.close();
 * ```
 */
export async function readExplorerReportRows(
  ws: Workspace,
): Promise<Map<string, Map<string, ReportRows>>> {
  const questions = new Map<string, Question[]>();
  for (const q of await ws.questions({ kind: "subquestion" })) push(questions, q.topicId, q);
  for (const list of questions.values()) list.sort((a, b) => a.ordinal - b.ordinal);
  const types = new Map<string, ReportRows["types"]>();
  const typed = await ws.query<
    { topicId: string; source: string; ordinal: number; text: string; type: string | null }
  >(
    `SELECT topic_id, source, ordinal, text, type FROM subq_questions
     ORDER BY topic_id, source, ordinal`,
  ).catch(() => []);
  for (const { topicId, ...t } of typed) push(types, topicId, t);
  const coverage = new Map<string, CoverageVerdict[]>();
  for (
    const { textKey: key, ...c } of await ws.query<CoverageVerdict & { textKey: string }>(
      `SELECT text_key AS "textKey", sub_question AS "subQuestion", answered, span,
              coalesce(status, '') AS status, judge
       FROM subq_coverage ORDER BY text_key, judge, sub_question`,
    )
  ) push(coverage, key, c);
  // Ratings of report items by topic and run, and of reference items by topic: the
  // human summary (`oracle-result`) is rated as the reference when it has no report item.
  const reportRatings = new Map<string, Rating[]>();
  const referenceRatings = new Map<string, Rating[]>();
  for (
    const { kind, run, ...r } of await ws.query<Rating & { kind: string; run: string | null }>(
      `SELECT i.item_kind AS kind, i.run, r.topic_id AS "topicId", r.item_id AS "itemId",
              r.question_id AS "questionId", r.rating, r.judge
       FROM ratings r JOIN rated_items i
         ON i.topic_id = r.topic_id AND i.item_id = r.item_id AND i.judge = r.judge
       WHERE i.item_kind IN ('report', 'reference')
       ORDER BY r.judge, r.question_id`,
    )
  ) {
    if (kind === "report") push(reportRatings, `${r.topicId}\u0000${run}`, r);
    else push(referenceRatings, r.topicId, r);
  }
  const reportItems = new Set(
    (await ws.query<{ topicId: string; run: string }>(
      "SELECT DISTINCT topic_id, run FROM rated_items WHERE item_kind = 'report'",
    )).map((i) => `${i.topicId}\u0000${i.run}`),
  );
  const verdicts = new Map<string, StoredVerdict[]>();
  const nuggets = await ws.query<StoredVerdict & { run: string; topicId: string }>(
    `SELECT a.run, a.topic_id AS "topicId", 'nuggets' AS method,
            CAST(a.ordinal AS VARCHAR) AS id, n.text, n.importance,
            coalesce(a.label, 'unparsed') AS label, a.judge
     FROM nugget_assignments a
     JOIN nuggets n ON n.topic_id = a.topic_id AND n.origin = a.origin AND n.ordinal = a.ordinal
     ORDER BY a.run, a.topic_id, a.judge, a.ordinal`,
  );
  const keypoints = await ws.query<StoredVerdict & { run: string; topicId: string }>(
    `SELECT DISTINCT l.run, l.topic_id AS "topicId", 'keypoints' AS method,
            l.keypoint_id AS id, k.text, coalesce(l.label, l.status) AS label, l.judge
     FROM keypoint_labels l
     JOIN keypoints k ON k.topic_id = l.topic_id AND k.keypoint_id = l.keypoint_id
     ORDER BY l.run, l.topic_id, l.judge, l.keypoint_id`,
  );
  for (const { run, topicId, ...v } of [...nuggets, ...keypoints]) {
    push(
      verdicts,
      `${topicId}\u0000${run}`,
      v.importance === null || v.importance === undefined
        ? { method: v.method, id: v.id, text: v.text, label: v.label, judge: v.judge }
        : v,
    );
  }
  const out = new Map<string, Map<string, ReportRows>>();
  for (const report of await ws.generations()) {
    const key = `${report.topicId}\u0000${report.run}`;
    const ratings = reportRatings.get(key) ??
      (report.run === "oracle-result" && !reportItems.has(key)
        ? referenceRatings.get(report.topicId)
        : undefined);
    let runs = out.get(report.topicId);
    if (!runs) out.set(report.topicId, runs = new Map());
    runs.set(report.run, {
      report,
      questions: questions.get(report.topicId) ?? [],
      coverage: coverage.get(await textKey(report.text)) ?? [],
      types: types.get(report.topicId) ?? [],
      ratings: ratings ?? [],
      verdicts: verdicts.get(key) ?? [],
    });
  }
  return out;
}
