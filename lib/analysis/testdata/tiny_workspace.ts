/**
 * Writes the tiny analysis fixture into a fresh workspace (for the loader tests).
 *
 * @module
 */
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import { tinyData } from "./tiny_data.ts";

/** Opens a workspace in `dir` holding the tiny fixture: passage ratings by `human`, report ratings by `lexical`. */
export async function tinyWorkspace(dir: string): Promise<Workspace> {
  const data = tinyData();
  const ws = await openWorkspace(dir);
  await ws.upsert(
    "topics",
    data.topics.map((t) => ({
      topicId: t.topicId,
      request: `request ${t.topicId}`,
      source: t.dataset,
    })),
  );
  await ws.upsert(
    "questions",
    [...data.questions].flatMap(([topicId, qs]) =>
      qs.map((questionId, i) => ({
        topicId,
        questionId,
        kind: "subquestion",
        ordinal: i + 1,
        text: `question ${i + 1}`,
      }))
    ),
  );
  await ws.upsert(
    "passages",
    [...data.tokens].map(([passageId, tokens]) => ({
      passageId,
      topicId: passageId.slice(0, 2),
      docId: passageId.slice(0, passageId.indexOf("#")),
      text: `text of ${passageId}`,
      tokens,
    })),
  );
  await ws.upsert("ratings", [
    ...data.passageRatings.flatMap((r) =>
      r.ratings.map((rating, i) => ({
        topicId: r.topicId,
        itemId: r.itemId,
        questionId: data.questions.get(r.topicId)![i],
        rating,
        judge: "human",
      }))
    ),
    ...[...data.reportRatings].flatMap(([itemId, m]) =>
      [...m].map(([questionId, rating]) => ({
        topicId: itemId.slice(0, 2),
        itemId,
        questionId,
        rating,
        judge: "lexical",
      }))
    ),
    // The human also rated the human summary of t1: q1 and q2 fully, q3 not.
    ...[5, 5, 0].map((rating, i) => ({
      topicId: "t1",
      itemId: "t1:report",
      questionId: `t1#q${i + 1}`,
      rating,
      judge: "human",
    })),
  ]);
  await ws.upsert("qrels", data.qrels.map((q) => ({ name: "crux_pr", ...q })));
  await ws.insert("runs", [...data.runs.values()].flat());
  await ws.upsert("generations", data.generations);
  return ws;
}
