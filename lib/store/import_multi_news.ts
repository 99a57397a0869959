/**
 * Imports Multi-News examples (JSONL, Parquet or `.src`/`.tgt` pairs) as topics and
 * documents.
 *
 * @module
 */
import { type MultiNewsExample, readMultiNewsJsonl, readMultiNewsPairs } from "@lib/formats/mod.ts";
import type { Document, Topic } from "@lib/types/mod.ts";
import type { ImportCounts, ImportOptions } from "./_import.ts";
import { readMultiNewsParquet } from "./multi_news_parquet.ts";
import type { Workspace } from "./workspace.ts";

/** Where the examples come from: exactly one of `jsonl`, `parquet` or `src` + `tgt`. */
export interface MultiNewsSources {
  jsonl?: string;
  parquet?: string;
  src?: string;
  tgt?: string;
}

/** Options of {@linkcode importMultiNews}. */
export interface MultiNewsImportOptions extends ImportOptions {
  /** Split name used in topic ids `multi_news-{split}-{n}`. Default `test`. */
  split?: string;
  /** Import at most this many examples. Default all. */
  limit?: number;
}

function read(
  sources: MultiNewsSources,
  opts: { limit?: number; onDuplicates: (count: number) => void },
): Promise<MultiNewsExample[]> {
  const given = [sources.jsonl, sources.parquet, sources.src ?? sources.tgt].filter((s) =>
    s !== undefined
  );
  if (given.length !== 1 || (sources.src === undefined) !== (sources.tgt === undefined)) {
    throw new TypeError(
      "Cannot import Multi-News: give exactly one of jsonl, parquet, or src together with tgt",
    );
  }
  if (sources.jsonl) return readMultiNewsJsonl(sources.jsonl, opts);
  if (sources.parquet) return readMultiNewsParquet(sources.parquet, opts);
  return readMultiNewsPairs(sources.src!, sources.tgt!, opts);
}

/**
 * Loads Multi-News examples idempotently: topic `multi_news-{split}-{n}` (n = the
 * example's position in the file, as in the CRUX release; an exact repeat of an
 * earlier example is dropped, counted, and takes no position) with the human summary
 * and an empty request (written later by dataset construction); one document
 * `{topic}:{i}` per source article. Examples without articles are skipped.
 *
 * @param ws The workspace.
 * @param sources Exactly one of `jsonl`, `parquet`, or `src` + `tgt`.
 * @param opts `split` (default `test`), `limit` (default all), `onProgress`.
 * @returns Rows stored per table.
 * @throws {TypeError} When the sources are not exactly one kind.
 * @throws {InputError} For malformed files or `.src`/`.tgt` files of different lengths.
 * @example
 * ```ts ignore
 * // Not run as a test: it reads Multi-News, which the user brings.
 * import { importMultiNews } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await importMultiNews(ws, { src: "test.src.txt", tgt: "test.tgt.txt" }, { limit: 50 });
 * ```
 */
export async function importMultiNews(
  ws: Workspace,
  sources: MultiNewsSources,
  opts: MultiNewsImportOptions = {},
): Promise<ImportCounts> {
  const split = opts.split ?? "test";
  const examples = await read(sources, {
    limit: opts.limit,
    onDuplicates: (n) =>
      n && opts.onProgress?.(`dropped ${n} examples repeating an earlier one exactly`),
  });
  const topics: Topic[] = [];
  const documents: Document[] = [];
  let skipped = 0;
  for (const ex of examples) {
    if (ex.documents.length === 0) {
      skipped++;
      continue;
    }
    const topicId = `multi_news-${split}-${ex.index}`;
    topics.push({ topicId, request: "", summary: ex.summary, source: "multi_news" });
    ex.documents.forEach((text, i) =>
      documents.push({ topicId, docId: `${topicId}:${i}`, docIndex: i, text })
    );
  }
  if (skipped) opts.onProgress?.(`skipped ${skipped} examples without source articles`);
  return await ws.transaction(async () => ({
    topics: await ws.upsert("topics", topics),
    documents: await ws.upsert("documents", documents),
  }));
}
