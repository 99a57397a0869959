/**
 * A hand-made workspace extract for the analysis tests: two topics, three
 * pipelines (a, b, c) and the three references, with values small enough to
 * check by hand (see the comments and the tests).
 *
 * t1: questions q1..q3; P* = {t1:0#0, t1:0#1} (200 tokens); A(3) = {q1, q2}, A(5) = {q1}.
 * t2: questions q1..q2; P* = {t2:0#0, t2:0#1} (200 tokens); A(3) = A(5) = {q1, q2}.
 *
 * @module
 */
import type { Generation } from "@lib/types/mod.ts";
import type { CruxData } from "../types.ts";
import { withStoredMeasures } from "./stored_measures.ts";

const gen = (
  run: string,
  condition: string,
  topicId: string,
  contextIds: string[],
  tokens: number,
): Generation => ({
  run,
  topicId,
  text: `${run} report on ${topicId}`,
  condition,
  backend: run === "oracle-result" ? "human" : "extractive",
  contextIds,
  tokens,
});

/** Report ratings as [item id, [q1, q2(, q3)]] */
const reports: [string, number[]][] = [
  ["t1:report:a", [5, 4, 0]],
  ["t2:report:a", [5, 0]],
  ["t1:report:b", [3, 1, 0]],
  ["t2:report:b", [0, 2]],
  ["t1:report:c", [0, 0, 0]],
  ["t2:report:c", [4, 4]],
  ["t1:report:direct", [0, 0, 0]],
  ["t2:report:direct", [3, 0]],
  ["t1:report:oracle-context", [5, 5, 0]],
  ["t2:report:oracle-context", [5, 5]],
  ["t1:report", [5, 5, 5]],
  ["t2:report", [5, 4]],
];

/**
 * A fresh copy of the fixture (tests may not share mutable state), with the
 * rows the measure stages store for it at t = 3 and 5 (see `stored_measures.ts`).
 */
export function tinyData(): CruxData {
  return withStoredMeasures(tinyExtract());
}

/** The fixture without stored measures: what a workspace holds before the measure stages run. */
export function tinyExtract(): CruxData {
  const questions = new Map([["t1", ["t1#q1", "t1#q2", "t1#q3"]], ["t2", ["t2#q1", "t2#q2"]]]);
  return {
    topics: [{ topicId: "t1", dataset: "tiny" }, { topicId: "t2", dataset: "tiny" }],
    questions,
    passageRatings: [
      { topicId: "t1", itemId: "t1:0#0", ratings: [5, 0, 0] },
      { topicId: "t1", itemId: "t1:0#1", ratings: [0, 4, 0] },
      { topicId: "t1", itemId: "t1:1#2", ratings: [0, 0, 2] },
      { topicId: "t1", itemId: "t1:1#3", ratings: [4, 3, 0] },
      { topicId: "t1", itemId: "t1:1#4", ratings: [0, 0, 0] },
      { topicId: "t2", itemId: "t2:0#0", ratings: [5, 0] },
      { topicId: "t2", itemId: "t2:0#1", ratings: [0, 5] },
      { topicId: "t2", itemId: "t2:0#2", ratings: [3, 3] },
    ],
    qrels: [
      { topicId: "t1", docId: "t1:0#0", grade: 3, subtopic: "0" },
      { topicId: "t1", docId: "t1:0#1", grade: 3, subtopic: "0" },
      { topicId: "t1", docId: "t1:1#2", grade: 2, subtopic: "0" },
      { topicId: "t1", docId: "t1:1#3", grade: 2, subtopic: "0" },
      { topicId: "t1", docId: "t1:1#4", grade: 2, subtopic: "0" },
      { topicId: "t2", docId: "t2:0#0", grade: 3, subtopic: "0" },
      { topicId: "t2", docId: "t2:0#1", grade: 3, subtopic: "0" },
      { topicId: "t2", docId: "t2:0#2", grade: 1, subtopic: "0" },
    ],
    tokens: new Map([
      ["t1:0#0", 100],
      ["t1:0#1", 100],
      ["t1:1#2", 100],
      ["t1:1#3", 50],
      ["t1:1#4", 100],
      ["t2:0#0", 100],
      ["t2:0#1", 100],
      ["t2:0#2", 100],
    ]),
    runs: new Map([
      // bm25 ranks t1 like pipeline b's context and t2 like a's, plus deeper passages.
      ["bm25", [
        { run: "bm25", topicId: "t1", docId: "t1:1#3", rank: 1, score: 9 },
        { run: "bm25", topicId: "t1", docId: "t1:1#2", rank: 2, score: 8 },
        { run: "bm25", topicId: "t1", docId: "t1:0#0", rank: 3, score: 7 },
        { run: "bm25", topicId: "t1", docId: "t1:0#1", rank: 4, score: 6 },
        { run: "bm25", topicId: "t2", docId: "t2:0#2", rank: 1, score: 9 },
        { run: "bm25", topicId: "t2", docId: "t2:0#0", rank: 2, score: 8 },
        { run: "bm25", topicId: "t2", docId: "t2:0#1", rank: 3, score: 7 },
      ]],
    ]),
    generations: [
      gen("a", "rag", "t1", ["t1:0#0", "t1:0#1"], 200),
      gen("a", "rag", "t2", ["t2:0#2", "t2:0#0"], 100),
      gen("b", "rag", "t1", ["t1:1#3", "t1:1#2"], 100),
      gen("b", "rag", "t2", ["t2:0#1", "t1:0#0"], 50),
      gen("c", "rag", "t1", ["t1:1#2", "t1:1#4"], 10),
      gen("c", "rag", "t2", ["t2:0#2", "t2:0#1"], 400),
      gen("direct", "direct", "t1", [], 50),
      gen("direct", "direct", "t2", [], 100),
      gen("oracle-context", "oracle-context", "t1", ["t1:0#0", "t1:0#1"], 200),
      gen("oracle-context", "oracle-context", "t2", ["t2:0#0", "t2:0#1"], 200),
      gen("oracle-result", "oracle-result", "t1", [], 400),
      gen("oracle-result", "oracle-result", "t2", [], 200),
    ],
    reportRatings: new Map(
      reports.map(([item, rs]) => {
        const topic = item.slice(0, 2);
        return [item, new Map(rs.map((r, i) => [`${topic}#q${i + 1}`, r]))];
      }),
    ),
    passageJudge: "human",
    reportJudge: "lexical",
    backends: { judge: "lexical", generator: "extractive" },
  };
}
