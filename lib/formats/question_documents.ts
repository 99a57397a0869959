/**
 * Questions with the documents given to their responses (Long2RAG-style input),
 * JSONL, one line per question (or per question and run when runs saw
 * different documents): `{"qid", "question", "run_id"?, "documents": [{"doc_id",
 * "text", "title"?}], "response"?}`. `id` is accepted for `doc_id`.
 *
 * @module
 */
import { decodeJsonl, decodeJsonlFile, type Decoder, type Fields } from "./_json.ts";
import { countRepeats, once, Repeats } from "./_repeats.ts";

/** One document given to a response. */
export interface QuestionDocument {
  docId: string;
  text: string;
  title?: string;
}

/** One line of a questions-with-documents file. */
export interface QuestionDocuments {
  qid: string;
  question: string;
  /** The run whose response saw these documents; absent when every run saw them. */
  runId?: string;
  documents: QuestionDocument[];
  /** The run's response, when the file carries it. */
  response?: string;
  /** 1-based line in the file. */
  line: number;
}

function decode(f: Fields): QuestionDocuments | undefined {
  const qid = f.string("qid", { coerce: true });
  const question = f.string("question");
  const runId = f.string("run_id", { optional: true, coerce: true });
  const response = f.string("response", { optional: true });
  const list = f.objects("documents");
  if (qid === undefined || question === undefined || list === undefined) return undefined;
  const documents: QuestionDocument[] = [];
  const seen = new Set<string>();
  for (const d of list) {
    const key = d.has("doc_id") ? "doc_id" : "id";
    const docId = d.string(key, { coerce: true });
    const text = d.string("text");
    const title = d.string("title", { optional: true });
    if (docId === undefined || text === undefined) continue;
    if (seen.has(docId)) return d.fail(key, `document "${docId}" is listed twice`);
    seen.add(docId);
    documents.push({ docId, text, ...(title !== undefined ? { title } : {}) });
  }
  return {
    qid,
    question,
    ...(runId !== undefined ? { runId } : {}),
    documents,
    ...(response !== undefined ? { response } : {}),
    line: f.line,
  };
}

function decodeOnce(repeats: Repeats): Decoder<QuestionDocuments> {
  return once(
    decode,
    repeats,
    (r) => JSON.stringify([r.qid, r.runId ?? null]),
    "qid",
    (r) =>
      `question ${JSON.stringify(r.qid)}${
        r.runId === undefined ? "" : ` of run ${JSON.stringify(r.runId)}`
      }`,
    ({ line: _, ...rest }) => rest,
  );
}

/**
 * Parses a questions-with-documents file. The same `qid` may appear on several
 * lines only with distinct `run_id`s (a run's own documents): a line repeating
 * an earlier one of the same question and run exactly is dropped (counted
 * through `onDuplicates`), one with other content is an error naming both lines.
 *
 * @param text JSONL text.
 * @param opts `file` names the input in errors; `onDuplicates`.
 * @returns One record per (question, run), in file order.
 * @throws {InputError} On malformed lines or a conflicting (qid, run_id), with file and line.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseQuestionDocuments } from "@lib/formats/mod.ts";
 * const line = '{"qid": "q1", "question": "Why?", "documents": [{"doc_id": "d1", "text": "Because."}]}';
 * assert.equal(parseQuestionDocuments(line + "\n", { file: "questions.jsonl" })[0].documents[0].docId, "d1");
 * ```
 */
export function parseQuestionDocuments(
  text: string,
  opts: { file: string; onDuplicates?: (count: number) => void },
): QuestionDocuments[] {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonl(text, opts.file, decodeOnce(repeats)),
  );
}

/**
 * Reads a questions-with-documents file (see {@linkcode parseQuestionDocuments}).
 *
 * @param path The JSONL file.
 * @param opts `onDuplicates` as in {@linkcode parseQuestionDocuments}.
 * @returns The records.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readQuestionDocuments } from "@lib/formats/mod.ts";
 * const path = `${await Deno.makeTempDir()}/questions.jsonl`;
 * await Deno.writeTextFile(path, '{"qid": "q1", "question": "Why?", "documents": [{"doc_id": "d1", "text": "Because."}]}');
 * const questions = await readQuestionDocuments(path);
 * assert.equal(questions[0].documents[0].docId, "d1");
 * ```
 */
export function readQuestionDocuments(
  path: string,
  opts: { onDuplicates?: (count: number) => void } = {},
): Promise<QuestionDocuments[]> {
  return countRepeats(opts.onDuplicates, (repeats) => decodeJsonlFile(path, decodeOnce(repeats)));
}
