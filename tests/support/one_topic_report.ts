/**
 * Tests' one-topic report fixture: topic `t` with answerable sub-questions Q1
 * and Q2 and an unanswerable Q3; P* = t:0#0 (Q1 rated 5, 100 tokens) and
 * t:0#1 (Q2 rated 4, 300 tokens); t:0#2 rates Q1 3 (50 tokens); x:0#0 of
 * another topic is unrated (80 tokens). One RAG report of 100 tokens whose
 * context is t:0#2 and x:0#0. Passage ratings are by the judge `human`.
 *
 * @module
 */
import type { Workspace } from "@lib/store/mod.ts";

/** What differs between the tests that use the fixture. */
export interface OneTopicReportOptions {
  /** The generation run of the report. */
  run: string;
  /** The report's text. */
  text: string;
  /** When set, t:0#2 is in `crux_pr` too, with this grade (P* keeps grade 3 only). */
  contextGrade?: number;
}

/**
 * Writes the fixture's questions, passages, `crux_pr` qrels, passage ratings
 * and report into `ws`.
 */
export async function writeOneTopicReport(
  ws: Workspace,
  opts: OneTopicReportOptions,
): Promise<void> {
  const q = (ordinal: number, answerable: boolean) => ({
    topicId: "t",
    questionId: `t#q${ordinal}`,
    kind: "subquestion",
    ordinal,
    text: `Q${ordinal}?`,
    answerable,
  });
  await ws.upsert("questions", [q(1, true), q(2, true), q(3, false)]);
  await ws.upsert("passages", [
    { passageId: "t:0#0", topicId: "t", docId: "t:0", text: "P0", tokens: 100 },
    { passageId: "t:0#1", topicId: "t", docId: "t:0", text: "P1", tokens: 300 },
    { passageId: "t:0#2", topicId: "t", docId: "t:0", text: "P2", tokens: 50 },
    { passageId: "x:0#0", topicId: "x", docId: "x:0", text: "X0", tokens: 80 },
  ]);
  await ws.upsert("qrels", [
    { name: "crux_pr", topicId: "t", subtopic: "0", docId: "t:0#0", grade: 3 },
    { name: "crux_pr", topicId: "t", subtopic: "0", docId: "t:0#1", grade: 3 },
    ...(opts.contextGrade === undefined ? [] : [
      { name: "crux_pr", topicId: "t", subtopic: "0", docId: "t:0#2", grade: opts.contextGrade },
    ]),
  ]);
  const passageRatings = { "t:0#0": [5, 0, 0], "t:0#1": [0, 4, 0], "t:0#2": [3, 0, 0] };
  await ws.upsert(
    "ratings",
    Object.entries(passageRatings).flatMap(([itemId, rs]) =>
      rs.map((rating, k) => ({
        topicId: "t",
        itemId,
        questionId: `t#q${k + 1}`,
        rating,
        judge: "human",
      }))
    ),
  );
  await ws.upsert("generations", [{
    run: opts.run,
    topicId: "t",
    text: opts.text,
    condition: "rag",
    backend: "extractive",
    contextIds: ["t:0#2", "x:0#0"],
    tokens: 100,
  }]);
}
