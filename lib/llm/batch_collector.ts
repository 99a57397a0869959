// A client stand-in that collects requests instead of sending them, for batch export.

import type { StoredCall } from "./call_cache.ts";

/** One request a {@link BatchCollector} took instead of sending it. */
export interface CollectedRequest {
  /** The cache key, used as the Batch `custom_id`. */
  key: string;
  /** The request body exactly as the client would send it. */
  body: Record<string, unknown>;
  /** The call as it will wait in the cache (`pending`) until its answer is imported. */
  pending: StoredCall;
}

const active = new Map<string, BatchCollector>();

/**
 * Takes the chat requests that the cache cannot answer instead of sending them,
 * for an OpenAI Batch file. A collector is attached to a journal path with
 * {@link BatchCollector.attach}: every {@link CallCache} opened on that journal
 * afterwards (as the pipeline opens them) hands its clients' unanswered chat
 * requests to the collector, which answers them `failed` with a note saying they
 * were exported; nothing is sent and nothing is stored for them. Embedding and
 * rerank calls are still sent.
 *
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { BatchCollector } from "@lib/llm/mod.ts";
 * const workspaceCopy = await Deno.makeTempDir(); // a copy of the workspace folder
 * const collector = new BatchCollector();
 * const detach = collector.attach(join(workspaceCopy, "llm_journal.jsonl"));
 * try {
 *   // run the stages on the workspace whose journal that is
 * } finally {
 *   detach();
 * }
 * collector.requests.length; // requests to put in the batch file
 * ```
 */
export class BatchCollector {
  readonly #requests = new Map<string, CollectedRequest>();

  /** The collected requests, one per cache key, in the order they were met. */
  get requests(): CollectedRequest[] {
    return [...this.#requests.values()];
  }

  /** How many requests were collected. */
  get size(): number {
    return this.#requests.size;
  }

  /** Takes a request (a repeated key is kept once). */
  add(request: CollectedRequest): void {
    if (!this.#requests.has(request.key)) this.#requests.set(request.key, request);
  }

  /**
   * Makes caches opened on `journal` from now on collect into this collector.
   *
   * @param journal Path of the journal file the caches are opened with.
   * @returns A function that detaches the collector again.
   */
  attach(journal: string): () => void {
    active.set(journal, this);
    return () => {
      if (active.get(journal) === this) active.delete(journal);
    };
  }

  /**
   * The collector attached to a journal path, if any (read by `CallCache.open`).
   *
   * @param journal A journal path.
   * @returns The collector, or undefined.
   */
  static for(journal: string | undefined): BatchCollector | undefined {
    return journal === undefined ? undefined : active.get(journal);
  }
}

/** The `error` of a call answered by a collector instead of the model. */
export const EXPORTED_NOTE =
  "Exported to a batch file, not sent: import its results (crux batch import) and run again";
