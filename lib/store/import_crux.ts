/**
 * Imports files of the CRUX release (corpus, topics, sub-questions, judgments,
 * qrels) into a workspace. Any subset may be given.
 *
 * @module
 */
import { recordGeneration, recordQrels, recordRatedItems } from "./provenance.ts";
import { basename, extname } from "node:path";
import {
  InputError,
  itemTopic,
  parsePassageId,
  prefixRewrite,
  type Problem,
  readAlignedRatings,
  readCruxTopics,
  readQrels,
  readReportRunFile,
  readSubquestions,
  reportRunOf,
  rewriteItem,
  streamCorpus,
  streamJudgments,
} from "@lib/formats/mod.ts";
import type { Passage } from "@lib/types/mod.ts";
import {
  type ImportCounts,
  type ImportOptions,
  ratingRecords,
  readMessage,
  subquestionRecords,
  upsertStream,
} from "./_import.ts";
import type { Workspace } from "./workspace.ts";

/** The CRUX files to import; each is optional. */
export interface CruxSources {
  /** Pooled corpus JSONL `{"id", "contents"}`. */
  corpus?: string;
  /** Topic JSONL (older with questions, or newer `{"id", "request"}`). */
  topics?: string;
  /** Sub-question JSON `{"topic_id": [...]}`. */
  subquestions?: string;
  /**
   * Judgment JSONL (either variant), or with `alignedTo` one JSON document
   * `{topic: [[ratings], ...]}` aligned to that run's ranking.
   */
  judgments?: string;
  /**
   * The TREC run the `judgments` document is aligned to: read by the reader `crux
   * eval --aligned-to` uses; each list becomes the ratings of (topic, the run's
   * passage at that rank).
   */
  alignedTo?: string;
  /**
   * Report-run files of the human-study release (JSONL `{qid, type, docids,
   * report, response, ...}`): each report is stored as a generation of run
   * `rag-{type}` (`oracle-context` for type `oracle`) with its context ids; the
   * human labels' id `{type}_{qid}` (the topic alone for `oracle`) names it (see
   * `reportLabelTarget`). A topic without a reference summary gets the file's.
   */
  reports?: string[];
  /** Qrels files; each is stored under its file name without extension. */
  qrels?: string[];
  /** Topic id rewrites `FROM=TO` (prefix), e.g. `duc04-testb-=duc04-test-`. */
  rewrite?: string[];
  /** Judge name for the ratings. Default `import:<judgments file name>`. */
  judge?: string;
}

/** Dataset a CRUX topic id belongs to. */
function sourceOf(topicId: string): string {
  if (topicId.startsWith("duc04")) return "duc04";
  if (topicId.startsWith("multi_news")) return "multi_news";
  return "crux";
}

async function* passagesOf(path: string, rewrite: (id: string) => string): AsyncGenerator<Passage> {
  const problems: Problem[] = [];
  let line = 0;
  for await (const entry of streamCorpus(path)) {
    line++;
    const topic = itemTopic(entry.id);
    const parts = topic === undefined
      ? undefined
      : parsePassageId(rewriteItem(entry.id, topic, rewrite(topic)));
    if (!parts) {
      problems.push({
        file: path,
        line,
        field: "id",
        message: `"${entry.id}" is not a passage id {topic}:{doc}#{j}`,
      });
      continue;
    }
    yield {
      passageId: `${parts.docId}#${parts.index}`,
      topicId: parts.topicId,
      docId: parts.docId,
      text: entry.contents,
    };
  }
  if (problems.length) throw new InputError(problems.slice(0, 50), problems.length);
}

/**
 * Loads CRUX release files into the workspace in one transaction (all or nothing),
 * idempotently. Topics get source `duc04`, `multi_news` or `crux` from their id;
 * sub-questions (from `subquestions` or an older topic file) become questions
 * `{topic}#q{n}`; each judgment becomes one rating per question, keyed by (topic,
 * passage, sub-question, judge); rating lists are checked against the topic's
 * question count (from these files or the workspace). With `alignedTo`, the
 * judgments file is a ratings document aligned to that run: a passage the run
 * ranks for two topics is rated under each with that topic's list.
 *
 * @param ws The workspace.
 * @param sources The files to import (see {@linkcode CruxSources}).
 * @param opts `onProgress` receives progress messages, counting records read
 *   (`topics: 2 records read`); nothing is stored until the transaction commits.
 * @returns Rows stored per table (a record repeating a stored key counts once),
 *   known only once the transaction has committed.
 * @throws {InputError} Listing the problems of a malformed file.
 * @throws {SyntaxError} For a malformed `rewrite` spec.
 * @example
 * ```ts ignore
 * // Not run as a test: it reads the CRUX release, which the user brings.
 * import { importCrux } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await importCrux(ws, { judgments: "crux/judgments.jsonl", rewrite: ["duc04-testb-=duc04-test-"] });
 * ```
 */
export async function importCrux(
  ws: Workspace,
  sources: CruxSources,
  opts: ImportOptions = {},
): Promise<ImportCounts> {
  const rewrite = prefixRewrite(sources.rewrite ?? []);
  const progress = opts.onProgress;
  const counts: ImportCounts = {};
  const topicFile = sources.topics
    ? await readCruxTopics(sources.topics, { rewriteTopic: rewrite })
    : undefined;
  const questions = new Map(topicFile?.questions ?? []);
  if (sources.subquestions) {
    for (const [t, qs] of await readSubquestions(sources.subquestions, { rewriteTopic: rewrite })) {
      questions.set(t, qs);
    }
  }
  const known = await ws.query<{ topicId: string; n: number }>(
    "SELECT topic_id, count(*) AS n FROM questions WHERE kind = 'subquestion' GROUP BY ALL",
  );
  const questionCounts = new Map(known.map((r) => [r.topicId, r.n]));
  for (const [t, qs] of questions) questionCounts.set(t, qs.length);

  // Progress reports records read; rows are stored only when the transaction commits.
  return await ws.transaction(async () => {
    if (topicFile) {
      progress?.(readMessage("topics", topicFile.topics.length));
      counts.topics = await ws.upsert(
        "topics",
        topicFile.topics.map((t) => ({ ...t, source: sourceOf(t.topicId) })),
      );
    }
    if (questions.size > 0) {
      for (const t of questions.keys()) {
        await ws.exec("DELETE FROM questions WHERE topic_id = $1 AND kind = 'subquestion'", [t]);
      }
      const records = [...questions].flatMap(([t, qs]) => subquestionRecords(t, qs));
      progress?.(readMessage("questions", records.length));
      counts.questions = await ws.upsert("questions", records);
    }
    if (sources.corpus) {
      counts.passages = await upsertStream(
        ws,
        "passages",
        passagesOf(sources.corpus, rewrite),
        opts,
      );
    }
    if (sources.judgments) {
      const judge = sources.judge ?? `import:${basename(sources.judgments)}`;
      progress?.(
        `ratings: reading ${sources.judgments} as judge "${judge}"${
          sources.alignedTo ? `, aligned to the run ${sources.alignedTo}` : ""
        }`,
      );
      const judgments = sources.alignedTo
        ? await readAlignedRatings(sources.judgments, sources.alignedTo, {
          rewriteTopic: rewrite,
          questionCounts,
        })
        : streamJudgments(sources.judgments, {
          rewriteTopic: rewrite,
          questionCounts,
          onDuplicates: (n) =>
            n &&
            progress?.(`ratings: ${n} identical repeated lines of ${sources.judgments} dropped`),
        });
      counts.ratings = await upsertStream(
        ws,
        "ratings",
        flatten(judgments, (j) => ratingRecords(j, judge)),
        opts,
      );
      await recordRatedItems(ws, judge);
    }
    for (const path of sources.reports ?? []) {
      const records = await readReportRunFile(path);
      progress?.(readMessage(`reports "${basename(path)}"`, records.length));
      const backend = `import:${basename(path)}`;
      const runs = new Map<string, ReturnType<typeof reportRunOf>>();
      const generations = records.map((r) => {
        const topicId = rewrite(r.topicId);
        const target = reportRunOf(r.type);
        runs.set(target.run, target);
        return {
          run: target.run,
          topicId,
          text: r.response,
          condition: target.condition,
          backend,
          contextIds: r.contextIds.map((id) => {
            const from = itemTopic(id);
            return from === undefined ? id : rewriteItem(id, from, rewrite(from));
          }),
        };
      });
      counts.generations = (counts.generations ?? 0) + await ws.upsert("generations", generations);
      for (const target of runs.values()) await recordGeneration(ws, { ...target, backend });
      // The reference summary fills a topic's summary only where it has none.
      for (const r of records) {
        if (r.reference === undefined) continue;
        await ws.exec(
          "UPDATE topics SET summary = $2 WHERE topic_id = $1 AND coalesce(summary, '') = ''",
          [rewrite(r.topicId), r.reference],
        );
      }
    }
    for (const path of sources.qrels ?? []) {
      const name = basename(path, extname(path));
      const qrels = (await readQrels(path, {
        onDuplicates: (n) =>
          n && progress?.(`qrels: ${n} identical repeated lines of ${path} dropped`),
      })).map((q) => {
        const topicId = rewrite(q.topicId);
        return {
          ...q,
          name,
          topicId,
          docId: rewriteItem(q.docId, q.topicId, topicId),
          subtopic: q.subtopic ?? "0",
        };
      });
      progress?.(readMessage(`qrels "${name}"`, qrels.length));
      counts.qrels = (counts.qrels ?? 0) + await ws.upsert("qrels", qrels);
      await recordQrels(ws, { name, origin: `import:${basename(path)}` });
    }
    return counts;
  });
}

async function* flatten<T, U>(
  items: AsyncIterable<T> | Iterable<T>,
  f: (item: T) => U[],
): AsyncGenerator<U> {
  for await (const item of items) yield* f(item);
}
