import assert from "node:assert/strict";
import { parseQuestionDocuments } from "./question_documents.ts";

const line = (x: unknown) => JSON.stringify(x) + "\n";

Deno.test("parseQuestionDocuments: documents, optional run and response, id alias", () => {
  const text = line({
    qid: 1,
    question: "Why?",
    documents: [{ doc_id: "d1", text: "A." }, { id: 7, text: "B.", title: "T" }],
  }) + line({
    qid: 1,
    question: "Why?",
    run_id: "r2",
    documents: [{ doc_id: "d3", text: "C." }],
    response: "Because.",
  });
  assert.deepEqual(parseQuestionDocuments(text, { file: "q.jsonl" }), [
    {
      qid: "1",
      question: "Why?",
      documents: [{ docId: "d1", text: "A." }, { docId: "7", text: "B.", title: "T" }],
      line: 1,
    },
    {
      qid: "1",
      question: "Why?",
      runId: "r2",
      documents: [{ docId: "d3", text: "C." }],
      response: "Because.",
      line: 2,
    },
  ]);
});

Deno.test("parseQuestionDocuments: malformed lines name file, line and field", () => {
  assert.throws(
    () => parseQuestionDocuments(line({ qid: "q", documents: [] }), { file: "q.jsonl" }),
    /q\.jsonl:1: question: missing/,
  );
  assert.throws(
    () =>
      parseQuestionDocuments(
        line({
          qid: "q",
          question: "?",
          documents: [{ doc_id: "d", text: "a" }, { doc_id: "d", text: "b" }],
        }),
        { file: "q.jsonl" },
      ),
    /q\.jsonl:1: documents\[1\]\.doc_id: document "d" is listed twice/,
  );
  // The same question again: dropped and counted when exact, else both lines named.
  const twice = line({ qid: "q", question: "?", documents: [] });
  let dropped = -1;
  const kept = parseQuestionDocuments(twice + twice, {
    file: "q.jsonl",
    onDuplicates: (n) => dropped = n,
  });
  assert.deepEqual([kept.length, dropped], [1, 1]);
  assert.throws(
    () =>
      parseQuestionDocuments(twice + line({ qid: "q", question: "Why?", documents: [] }), {
        file: "q.jsonl",
      }),
    /q\.jsonl:2: qid: question "q" is already on line 1 with other content/,
  );
});
