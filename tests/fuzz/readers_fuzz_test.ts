/**
 * Fuzzing every reader: random mutations of valid files (truncation, byte flips,
 * repeated or deleted lines, huge numbers, invalid UTF-8, a BOM) either parse or
 * fail with an error that names the file, never a stray TypeError or a stack
 * trace, and never hang. Seeded, so a failure reproduces.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import * as formats from "@lib/formats/mod.ts";
import { parseAnswerabilityPairs } from "@lib/llm/mod.ts";
import { mutate, mutations } from "./_mutate.ts";

const enc = new TextEncoder();
const lines = (...xs: unknown[]) => enc.encode(xs.map((x) => JSON.stringify(x)).join("\n") + "\n");

/** Each reader with a small valid input in its format. */
const READERS: {
  file: string;
  seed: Uint8Array;
  parse: (text: string, file: string) => unknown;
}[] = [
  {
    file: "x.run",
    seed: enc.encode(
      "t1 Q0 t1:0#0 1 12.5 bm25\nt1 Q0 t1:0#1 2 11 bm25\nt2 Q0 t2:0#0 1 3.25 bm25\n",
    ),
    parse: (t, file) => formats.parseRun(t, { file }),
  },
  {
    file: "x.qrels",
    seed: enc.encode("t1 0 t1:0#0 3\nt1 0 t1:0#1 1\nt2 2 t2:0#0 1\n"),
    parse: (t, file) => formats.parseQrels(t, { file }),
  },
  {
    file: "judgments.jsonl",
    seed: lines(
      { id: "t1", docid: "t1:0#0", rating: [5, 0, 3] },
      { example_id: "t1", pid: "t1:0#1", rating: [1, -1, 4] },
      { id: "t1", docid: "t1:report", rating: [5, 5, 5] },
    ),
    parse: (t, file) => formats.parseJudgments(t, { file }),
  },
  {
    file: "corpus.jsonl",
    seed: lines({ id: "t1:0#0", contents: "A storm hit the coast." }, {
      id: "t1:0#1",
      text: "Crews rescued 12.",
    }),
    parse: (t, file) => formats.parseCorpus(t, { file }),
  },
  {
    file: "topics.jsonl",
    seed: lines(
      { id: "t1", request: "Report on the storm.", title: "Storm" },
      { example_id: "t2", topic: "Floods", questions: ["1. Who?", "2. When?"], report: "..." },
    ),
    parse: (t, file) => formats.parseTopics(t, { file }),
  },
  {
    file: "subquestions.json",
    seed: enc.encode(JSON.stringify({ t1: ["1. Who was hurt?", "2. When?"], t2: ["Why?"] })),
    parse: (t, file) => formats.parseSubquestions(t, { file }),
  },
  {
    file: "pairs.jsonl",
    seed: lines({ id: "p1", question: "Who?", context: "The mayor." }, {
      id: 2,
      question: "When?",
      context: "Monday.",
    }),
    parse: (t, file) => parseAnswerabilityPairs(t, { file }),
  },
  {
    file: "nuggets.jsonl",
    seed: lines({
      qid: "q1",
      query: "storm",
      nuggets: [{ text: "storm hit", importance: "vital" }, {
        text: "12 rescued",
        importance: "okay",
      }],
    }),
    parse: (t, file) => formats.parseNuggets(t, { file }),
  },
  {
    file: "assignments.jsonl",
    seed: lines({
      qid: "q1",
      run_id: "r",
      nuggets: [{ text: "storm hit", importance: "vital", assignment: "support" }, {
        text: "x",
        importance: "okay",
        assignment: "failed",
      }],
    }),
    parse: (t, file) => formats.parseNuggetAssignments(t, { file }),
  },
  {
    file: "answers.jsonl",
    seed: lines({
      run_id: "r",
      topic_id: "q1",
      topic: "storm",
      references: ["d1", "d2"],
      response_length: 4,
      answer: [{ text: "A storm hit.", citations: [0] }, {
        text: "Crews came.",
        citations: [1, 0],
      }],
    }),
    parse: (t, file) => formats.parseRagAnswers(t, { file }),
  },
  {
    file: "creation.jsonl",
    seed: lines({
      query: { qid: "q1", text: "storm" },
      candidates: [{ docid: "d1", score: 2.5, judgment: 3, doc: { segment: "A storm hit." } }],
    }),
    parse: (t, file) => formats.parseNuggetCreationInput(t, { file }),
  },
  {
    file: "nugget_questions.jsonl",
    seed: lines({ id: "q1", nuggets: [["Who?", "The mayor"], ["When?", ["Monday", "Mon"]]] }),
    parse: (t, file) => formats.parseNuggetQuestions(t, { file }),
  },
  {
    file: "decompositions.json",
    seed: enc.encode(
      JSON.stringify([{
        question: "Why?",
        sub_questions_with_types: [{ sub_question: "Who?", type: "core" }, {
          sub_question: "Then?",
          type: "follow-up",
        }],
      }]),
    ),
    parse: (t, file) => formats.parseDecompositions(t, { file }),
  },
  {
    file: "coverage.json",
    seed: enc.encode(
      JSON.stringify([{ question: "Who?", judgment: "answered", text_span: "the mayor" }]),
    ),
    parse: (t, file) => formats.parseCoverageJudgments(t, { file }),
  },
  {
    file: "annotator.jsonl",
    seed: lines({
      id: "t1",
      question_based_nugget: { "Who?": "the mayor" },
      answerability: [1, 0, 1],
      coverage: 0.667,
    }),
    parse: (t, file) => formats.parseHumanAnnotations(t, { file }),
  },
  {
    // The release's layout: 15 slots, -2 for "NA" placeholder sub-questions, coverage over 15.
    file: "release_annotator.jsonl",
    seed: lines(
      {
        id: "duc04-1",
        question_based_nugget: { "Who?": "the mayor", "NA": "" },
        answerability: [1, 0, 1, 1, 0, 0, 1, 0, 1, 0, -2, -2, -2, -2, -2],
        coverage: 0.333,
      },
      {
        id: "bm25_duc04-2",
        answerability: [0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, -2],
        coverage: 0.333,
      },
    ),
    parse: (t, file) => formats.parseHumanAnnotations(t, { file }),
  },
  {
    file: "passage_annotator.jsonl",
    seed: lines(
      {
        id: "t1",
        document: "t1:0#0",
        relevances: { "0": 5, "1": -1, "2": 0 },
        rationales: { "0": "x" },
      },
      { id: "t1", document: "t1:0#1", relevances: { "0": 2, "1": 3, "2": 1 } },
    ),
    parse: (t, file) => formats.parseHumanAnnotations(t, { file }),
  },
  {
    file: "nugget_scores.jsonl",
    seed: lines(
      {
        qid: "q1",
        run_id: "r",
        strict_vital_score: 0.5,
        strict_all_score: 0.25,
        vital_score: 0.75,
        all_score: 0.5,
      },
      { qid: "q2", strict_vital_score: 1, strict_all_score: 1, vital_score: 1, all_score: 1 },
    ),
    parse: (t, file) => formats.parseNuggetScores(t, { file }),
  },
  {
    file: "keypoints.jsonl",
    seed: lines({
      qid: "q1",
      keypoints: [{
        id: "k1",
        text: "The bridge fell.",
        doc_id: "d1",
        spans: ["fell"],
        merged_from: ["a1"],
      }],
    }),
    parse: (t, file) => formats.parseKeyPoints(t, { file }),
  },
  {
    file: "entailments.jsonl",
    seed: lines({
      qid: "q1",
      run_id: "r",
      labels: [{ keypoint_id: "k1", label: "yes", reason: "stated" }],
    }),
    parse: (t, file) => formats.parseEntailments(t, { file }),
  },
  {
    file: "typed_coverage.jsonl",
    seed: lines(
      {
        question_id: "q1",
        sub_question: "Who?",
        type: "core",
        system: "s",
        answered: true,
        retrieved: false,
        chunk_share: 0.5,
        position: 12,
      },
      { question_id: "q1", sub_question: "Then?", type: "follow-up", system: "s", answered: false },
    ),
    parse: (t, file) => formats.parseTypedCoverage(t, { file }),
  },
  {
    file: "study.jsonl",
    seed: lines({
      qid: 3,
      topic: "Report on ...",
      questions: ["Who?"],
      docids: ["d1"],
      report: "r",
    }),
    parse: (t, file) => formats.parseHumanStudy(t, { file }),
  },
  {
    file: "questions_documents.jsonl",
    seed: lines(
      {
        qid: "q1",
        question: "What happened at the bridge?",
        run_id: "r",
        documents: [{ doc_id: "d1", text: "The bridge fell on Monday." }, {
          id: "d2",
          text: "Crews came.",
        }],
        response: "The bridge fell.",
      },
      { qid: "q2", question: "Why?", documents: [{ doc_id: "d3", text: "Rain." }] },
    ),
    parse: (t, file) => formats.parseQuestionDocuments(t, { file }),
  },
  {
    file: "statements.jsonl",
    seed: lines({
      qid: "q1",
      run_id: "r",
      statements: [{ text: "The bridge fell.", label: "yes", supported: true }, {
        text: "Nobody came.",
        label: null,
        supported: false,
      }],
    }),
    parse: (t, file) => formats.parseStatementSupport(t, { file }),
  },
  {
    file: "preferences.jsonl",
    seed: lines(
      { question: "Why?", answer_a: "Rain.", answer_b: "Wind.", preference: 0.5 },
      { question: "Who?", answer_a: "A.", answer_b: "B.", preference: -1 },
      { question: "When?", answer_a: "Monday.", answer_b: "Sunday.", preference: 0 },
    ),
    parse: (t, file) => formats.parsePreferences(t, { file }),
  },
];

/** The error names the file (and a line where it is about one) and carries no stack trace. */
export function assertLocated(error: unknown, file: string, context: string): void {
  assert.ok(error instanceof Error, `${context}: threw a non-error ${String(error)}`);
  assert.ok(
    !(error instanceof TypeError) || error.message.includes(file),
    `${context}: unlocated TypeError: ${error.message}`,
  );
  assert.ok(
    error.message.includes(file),
    `${context}: error does not name ${file}: ${error.message}`,
  );
  assert.doesNotMatch(error.message, /\n\s+at /, `${context}: stack trace in the message`);
}

for (const reader of READERS) {
  Deno.test(`fuzz: ${reader.file} reader parses or fails with a located error`, () => {
    // The valid seed parses.
    reader.parse(formats.decodeText(reader.seed, reader.file), reader.file);
    let refused = 0;
    fc.assert(
      fc.property(mutations, (list) => {
        const bytes = mutate(reader.seed, list);
        const t0 = performance.now();
        try {
          reader.parse(formats.decodeText(bytes, reader.file), reader.file);
        } catch (error) {
          refused++;
          assertLocated(error, reader.file, `${reader.file} after ${JSON.stringify(list)}`);
        }
        assert.ok(performance.now() - t0 < 2000, `${reader.file}: took too long`);
      }),
      { seed: 20261124, numRuns: 300 },
    );
    // The mutations do break files (and leave some readable): the check is not vacuous.
    assert.ok(refused > 30 && refused < 300, `${reader.file}: ${refused} of 300 refused`);
  });
}
