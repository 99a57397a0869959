import assert from "node:assert/strict";
import { datasetStats } from "./dataset_stats.ts";
import type { Question } from "@lib/types/mod.ts";

const q = (topicId: string, ordinal: number, answerable?: boolean): Question => ({
  topicId,
  questionId: `${topicId}#q${ordinal}`,
  kind: "subquestion",
  ordinal,
  text: `question ${ordinal}`,
  answerable,
});

Deno.test("datasetStats computes per-topic means over kept topics, per dataset and overall", () => {
  const rows = datasetStats({
    topics: [
      { topicId: "a", request: "", source: "duc04" },
      { topicId: "b", request: "", source: "duc04" },
      { topicId: "c", request: "", source: "multi_news" },
      { topicId: "d", request: "", source: "multi_news" }, // dropped: no P*
    ],
    documents: [
      { topicId: "a", docId: "a:0", docIndex: 0, text: "" },
      { topicId: "a", docId: "a:1", docIndex: 1, text: "" },
      { topicId: "b", docId: "b:0", docIndex: 0, text: "" },
      { topicId: "c", docId: "c:0", docIndex: 0, text: "" },
      { topicId: "d", docId: "d:0", docIndex: 0, text: "" },
    ],
    passages: [
      { passageId: "a:0#0", topicId: "a", docId: "a:0", text: "", tokens: 100 },
      { passageId: "a:1#1", topicId: "a", docId: "a:1", text: "", tokens: 200 },
      { passageId: "b:0#0", topicId: "b", docId: "b:0", text: "", tokens: 300 },
      { passageId: "c:0#0", topicId: "c", docId: "c:0", text: "", tokens: 50 },
      { passageId: "c:0#1", topicId: "c", docId: "c:0", text: "" },
      { passageId: "d:0#0", topicId: "d", docId: "d:0", text: "", tokens: 999 },
    ],
    questions: [
      q("a", 1, true),
      q("a", 2, false),
      q("a", 3, true),
      q("b", 1, true),
      q("c", 1, true),
      q("c", 2),
    ],
    qrels: [
      { topicId: "a", docId: "a:0#0", grade: 3 },
      { topicId: "a", docId: "a:1#1", grade: 3 },
      { topicId: "b", docId: "b:0#0", grade: 3 },
      { topicId: "c", docId: "c:0#0", grade: 3 },
      { topicId: "c", docId: "c:0#1", grade: 2 },
      { topicId: "d", docId: "d:0#0", grade: 1, subtopic: "1" },
    ],
  });
  assert.deepEqual(rows, [
    {
      dataset: "duc04",
      topics: 2,
      documentsPerTopic: 1.5, // 3 docs / 2
      passagesPerTopic: 1.5, // 3 passages / 2
      tokensPerPassage: 200, // (100 + 200 + 300) / 3
      subquestionsPerTopic: 2, // 4 / 2
      answerablePerTopic: 1.5, // 3 / 2
      requiredPerTopic: 1.5, // (2 + 1) / 2
      requiredTokensPerTopic: 300, // (300 + 300) / 2
    },
    {
      dataset: "multi_news",
      topics: 1,
      documentsPerTopic: 1,
      passagesPerTopic: 2,
      tokensPerPassage: 50, // the passage without a count is left out
      subquestionsPerTopic: 2,
      answerablePerTopic: 1,
      requiredPerTopic: 1,
      requiredTokensPerTopic: 50,
    },
    {
      dataset: "all",
      topics: 3,
      documentsPerTopic: 4 / 3,
      passagesPerTopic: 5 / 3,
      tokensPerPassage: 162.5, // 650 / 4
      subquestionsPerTopic: 2,
      answerablePerTopic: 4 / 3,
      requiredPerTopic: 4 / 3,
      requiredTokensPerTopic: 650 / 3,
    },
  ]);
});

Deno.test("datasetStats counts every topic when there are no qrels yet", () => {
  const rows = datasetStats({
    topics: [{ topicId: "x", request: "" }],
    documents: [],
    passages: [],
    questions: [],
    qrels: [],
  });
  assert.deepEqual(rows, [{
    dataset: "unknown",
    topics: 1,
    documentsPerTopic: 0,
    passagesPerTopic: 0,
    tokensPerPassage: 0,
    subquestionsPerTopic: 0,
    answerablePerTopic: 0,
    requiredPerTopic: 0,
    requiredTokensPerTopic: 0,
  }]);
});
