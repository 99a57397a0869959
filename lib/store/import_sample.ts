/**
 * Imports the bundled sample dataset (`datasets/sample/`) into a workspace.
 *
 * @module
 */
import { recordRatedItems } from "./provenance.ts";
import { join } from "node:path";
import {
  InputError,
  parsePassageId,
  readCorpus,
  readJsonl,
  readJudgments,
  readSubquestions,
  readTopicsFile,
} from "@lib/formats/mod.ts";
import type { Document, Passage } from "@lib/types/mod.ts";
import {
  type ImportCounts,
  type ImportOptions,
  ratingRecords,
  subquestionRecords,
} from "./_import.ts";
import type { Workspace } from "./workspace.ts";

/** Reads `documents.jsonl` records (`{topicId, docId, docIndex, title?, text}`). */
async function readDocuments(path: string): Promise<Document[]> {
  const rows = await readJsonl(path);
  const problems = rows.flatMap((r, i) =>
    typeof r.topicId === "string" && typeof r.docId === "string" &&
      Number.isInteger(r.docIndex) && typeof r.text === "string"
      ? []
      : [{ file: path, line: i + 1, message: "expected {topicId, docId, docIndex, text}" }]
  );
  if (problems.length) throw new InputError(problems.slice(0, 50), problems.length);
  return rows.map((r) => {
    const d: Document = {
      topicId: r.topicId as string,
      docId: r.docId as string,
      docIndex: r.docIndex as number,
      text: r.text as string,
    };
    if (typeof r.title === "string") d.title = r.title;
    return d;
  });
}

/**
 * Loads the sample layout into the workspace, idempotently: `topics.jsonl` ->
 * topics (source `sample`), `documents.jsonl` -> documents, `corpus.jsonl` ->
 * passages (topic and document from the CRUX id), `questions.json` -> questions
 * (kind `subquestion`, ordinal from 1, id `{topic}#q{ordinal}`), `judgments.jsonl`
 * -> ratings (judge `human`; the summary's ratings under `{topic}:report`).
 *
 * @param ws The workspace.
 * @param dir The sample folder. Default `datasets/sample`.
 * @param opts `onProgress` receives progress messages.
 * @returns Rows stored per table.
 * @throws {InputError} When a file is malformed, a passage id does not follow
 *   `{topic}:{doc}#{j}`, or a rating list's length differs from the topic's question count.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importSample } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const counts = await importSample(ws, "datasets/sample"); // idempotent: the same rows again
 * assert.equal(counts.topics, 10); // the sample's ten topics
 * ```
 */
export async function importSample(
  ws: Workspace,
  dir = "datasets/sample",
  opts: ImportOptions = {},
): Promise<ImportCounts> {
  const topics = (await readTopicsFile(join(dir, "topics.jsonl"))).map((t) => ({
    ...t,
    source: "sample",
  }));
  const documents = await readDocuments(join(dir, "documents.jsonl"));
  const corpusPath = join(dir, "corpus.jsonl");
  const corpus = await readCorpus(corpusPath);
  const bad = corpus.flatMap((c, i) =>
    parsePassageId(c.id) ? [] : [{
      file: corpusPath,
      line: i + 1,
      field: "id",
      message: `"${c.id}" is not {topic}:{doc}#{j}`,
    }]
  );
  if (bad.length) throw new InputError(bad.slice(0, 50), bad.length);
  const passages: Passage[] = corpus.map((c) => {
    const parts = parsePassageId(c.id)!;
    return { passageId: c.id, topicId: parts.topicId, docId: parts.docId, text: c.contents };
  });
  const questions = await readSubquestions(join(dir, "questions.json"));
  const questionCounts = new Map([...questions].map(([t, qs]) => [t, qs.length]));
  const judgments = await readJudgments(join(dir, "judgments.jsonl"), { questionCounts });
  opts.onProgress?.(`read ${topics.length} topics, ${passages.length} passages`);
  return await ws.transaction(async () => {
    const counts = {
      topics: await ws.upsert("topics", topics),
      documents: await ws.upsert("documents", documents),
      passages: await ws.upsert("passages", passages),
      questions: await ws.upsert(
        "questions",
        [...questions].flatMap(([t, qs]) => subquestionRecords(t, qs)),
      ),
      ratings: await ws.upsert("ratings", judgments.flatMap((j) => ratingRecords(j, "human"))),
    };
    await recordRatedItems(ws, "human");
    return counts;
  });
}
