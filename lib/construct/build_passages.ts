// Construction step `passages`: splits each topic's documents into numbered passages.

import { type LlmClient, loadTemplate, parseTagged, renderTemplate } from "@lib/llm/mod.ts";
import type { Passage } from "@lib/types/mod.ts";
import { chunkText, countTokens } from "@lib/text/mod.ts";
import { splitDocument } from "./split_document.ts";
import { type DocumentPassages, numberPassages } from "./number_passages.ts";
import {
  readDocuments,
  readPassages,
  readTopics,
  recordTokenizer,
  type WorkspaceLike,
  writePassageRows,
} from "@lib/store/mod.ts";
import type { StepOptions, StepSummary } from "./types.ts";

/** Options of {@link buildPassages}. */
export interface BuildPassagesOptions extends StepOptions {
  /** Model client for LLM decontextualisation; without it the offline chunker is used. */
  client?: LlmClient;
  /** Folder of replacement prompt templates. Default: the built-in ones. */
  templatesDir?: string;
  /** Passages kept per document piece (LLM path). Default 3. */
  maxPerPiece?: number;
  /** Offline chunk size in words. Defaults 120 and 200. */
  minWords?: number;
  maxWords?: number;
  /** Tokenizer of the stored token counts. Default `llama3.1`. */
  tokenizer?: "llama3.1" | "whitespace";
  /** Topics per batch of model calls (passages are written after each batch). Default 64. */
  batchTopics?: number;
}

interface Piece {
  topicId: string;
  docId: string;
  docIndex: number;
  text: string;
}

/**
 * Construction step `passages`: turns every document of the topics that have
 * no passages yet into passages, stored with Llama-3.1 token counts and CRUX ids
 * `{topic}:{doc}#{j}` (`j` across the topic). With a client, each document is
 * rewritten by the `decontextualize` template (documents over 1024 words are cut
 * into 512-word pieces first; at most 3 `<p>` passages per piece; an empty or
 * tagless answer gives no passage and a note). Without a client, documents are
 * chunked offline into 120-200-word sentence-aligned passages. A topic with a
 * failed call is not written, so a re-run retries it (answered calls come from
 * the cache). Topics that already have passages are skipped (their passages
 * only get token counts when they were imported without them).
 *
 * @param ws The experiment workspace.
 * @param opts Backend, limits and callbacks; see {@link BuildPassagesOptions}.
 * @returns What was done.
 * @example
 * ```ts
 * import { buildPassages } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const summary = await buildPassages(ws, {}); // offline chunker
 * summary.written; // passages stored
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function buildPassages(
  ws: WorkspaceLike,
  opts: BuildPassagesOptions = {},
): Promise<StepSummary> {
  const note = opts.onNote ?? (() => {});
  const topics = await readTopics(ws, opts.topics);
  const documents = await readDocuments(ws);
  const existing = await readPassages(ws);
  const todo = topics.filter((t) => !existing.has(t.topicId) && documents.has(t.topicId));
  const summary: StepSummary = {
    step: "passages",
    topics: 0,
    skipped: topics.length - todo.length,
    written: 0,
    failed: 0,
    unparsed: 0,
  };
  // Passages imported without token counts get them now, so budgets and densities agree.
  const uncounted = topics.flatMap((t) => existing.get(t.topicId) ?? []).filter((p) =>
    p.tokens === undefined
  );
  if (uncounted.length) {
    await writePassageRows(
      ws,
      uncounted.map((p) => ({ ...p, tokens: countTokens(p.text, { tokenizer: opts.tokenizer }) })),
    );
    opts.onNote?.(`${uncounted.length} passages had no token count; counted now`);
    await recordTokenizer(ws, opts.tokenizer ?? "llama3.1");
  }
  const batch = opts.batchTopics ?? 64;
  const tpl = opts.client
    ? await loadTemplate("decontextualize", { dir: opts.templatesDir })
    : undefined;
  for (let start = 0; start < todo.length; start += batch) {
    const group = todo.slice(start, start + batch);
    const perDoc = new Map<string, Map<string, DocumentPassages>>();
    const failedTopics = new Set<string>();
    const pieces: Piece[] = [];
    for (const topic of group) {
      const docs = new Map<string, DocumentPassages>();
      perDoc.set(topic.topicId, docs);
      for (const d of documents.get(topic.topicId)!) {
        docs.set(d.docId, { docId: d.docId, docIndex: d.docIndex, texts: [] });
        if (!opts.client) {
          docs.get(d.docId)!.texts.push(
            ...chunkText(d.text, { minWords: opts.minWords, maxWords: opts.maxWords }),
          );
        } else {
          for (const text of splitDocument(d.text)) {
            pieces.push({ topicId: topic.topicId, docId: d.docId, docIndex: d.docIndex, text });
          }
        }
      }
    }
    if (opts.client && tpl) {
      const records = await opts.client.chatMany(
        pieces.map((p) => renderTemplate(tpl, { document: p.text })),
        {
          parse: (t) => parseTagged(t, "p"),
          step: "passages",
          onProgress: opts.onProgress,
          signal: opts.signal,
        },
      );
      records.forEach((rec, i) => {
        const p = pieces[i];
        if (rec.status === "failed") {
          summary.failed++;
          if (!failedTopics.has(p.topicId)) {
            note(
              `Topic "${p.topicId}": decontextualisation of document "${p.docId}" failed (${rec.error}); re-run the step to retry`,
            );
          }
          failedTopics.add(p.topicId);
          return;
        }
        const parsed = rec.parsed!;
        if (!parsed.ok) {
          summary.unparsed++;
          note(
            `Topic "${p.topicId}", document "${p.docId}": the model returned no <p> passage for a piece; no passage was made from it`,
          );
          return;
        }
        perDoc.get(p.topicId)!.get(p.docId)!.texts.push(
          ...parsed.value.slice(0, opts.maxPerPiece ?? 3),
        );
      });
    }
    const out: Passage[] = [];
    for (const topic of group) {
      if (failedTopics.has(topic.topicId)) continue;
      const passages = numberPassages(topic.topicId, [...perDoc.get(topic.topicId)!.values()]);
      for (const p of passages) {
        out.push({ ...p, tokens: countTokens(p.text, { tokenizer: opts.tokenizer }) });
      }
      summary.topics++;
    }
    if (out.length) {
      await writePassageRows(ws, out);
      await recordTokenizer(ws, opts.tokenizer ?? "llama3.1");
    }
    summary.written += out.length;
  }
  return summary;
}
