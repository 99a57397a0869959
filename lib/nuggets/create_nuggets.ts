/**
 * Nugget creation (AutoNuggetizer): a running list updated window by window.
 *
 * @module
 */
import {
  clearTopicNuggets,
  type WorkspaceLike,
  writeNuggetPassages,
  writeNuggets,
} from "@lib/store/mod.ts";
import type { NuggetBackend, WindowCallOptions } from "./types.ts";
import type { NuggetSource } from "./relevant_passages.ts";
import { windows } from "./_windows.ts";

/** Options of {@linkcode createNuggets}. */
export interface CreateNuggetsOptions extends WindowCallOptions {
  backend: NuggetBackend;
  /** Passages per call. Default 10. */
  window?: number;
  /** Nuggets per topic at most. Default 30. */
  maxNuggets?: number;
  /** Notes worth telling the user (failed windows). */
  onNote?: (message: string) => void;
}

/** What {@linkcode createNuggets} did. */
export interface CreateNuggetsResult {
  /** `created:<backend name>`, the origin of the nuggets written. */
  origin: string;
  topics: number;
  nuggets: number;
  /** Calls (windows) made or served from the cache. */
  windows: number;
  /** Windows whose output could not be read (the running list was kept unchanged). */
  failed: number;
}

/**
 * Creates each topic's nuggets from its passages as the TREC 2024 RAG track
 * does: starting from an empty list, each window of `window` passages (in the
 * source's order) is shown with the current list and the backend returns the
 * updated list, cut to `maxNuggets`. A window whose output cannot be read (after
 * the backend's bounded re-asks) leaves the list as it was and is recorded as
 * `failed` with its raw text. Topics run concurrently; windows of a topic in
 * order. Writes `nuggets` (origin `created:<backend>`, creation order, the call
 * that introduced each) and `nugget_passages` (the passages in the order shown,
 * with their window and call), replacing the topics' earlier rows of that origin
 * and the assignments made to them.
 *
 * @param ws The workspace.
 * @param sources Per topic, the query and passages ({@linkcode relevantPassages}).
 * @param opts Backend (required), window 10, maxNuggets 30, callbacks.
 * @returns Counts and the origin.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createNuggets, offlineNuggetBackend, relevantPassages } from "@lib/nuggets/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const r = await createNuggets(ws, await relevantPassages(ws), { backend: offlineNuggetBackend() });
 * assert.equal(r.origin, "created:offline");
 * ```
 */
export async function createNuggets(
  ws: WorkspaceLike,
  sources: readonly NuggetSource[],
  opts: CreateNuggetsOptions,
): Promise<CreateNuggetsResult> {
  const size = opts.window ?? 10;
  const maxNuggets = opts.maxNuggets ?? 30;
  const origin = `created:${opts.backend.name}`;
  const result: CreateNuggetsResult = { origin, topics: 0, nuggets: 0, windows: 0, failed: 0 };
  const nuggetRows: object[] = [];
  // One progress line over all windows (each window is its own call, as the list runs on).
  const total = sources.reduce((n, s) => n + Math.ceil(s.passages.length / size), 0);
  const started = performance.now();
  let done = 0, failed = 0;
  const tick = () => {
    const elapsedMs = performance.now() - started;
    const rate = elapsedMs > 0 ? done / (elapsedMs / 1000) : 0;
    opts.onProgress?.({
      step: "nugget creation",
      done,
      total,
      cached: 0,
      failed,
      elapsedMs,
      rate,
      etaMs: rate > 0 ? ((total - done) / rate) * 1000 : NaN,
    });
  };
  const passageRows: object[] = [];
  await Promise.all(sources.map(async (s) => {
    let list: string[] = [];
    const introducedBy = new Map<string, string | null>();
    const ws_ = windows(s.passages, size);
    for (let k = 0; k < ws_.length; k++) {
      const w = ws_[k];
      const out = await opts.backend.create(
        { query: s.query, nuggets: list, passages: w.map((p) => p.text), maxNuggets },
        { signal: opts.signal },
      );
      result.windows++;
      done++;
      if (out.status !== "ok") failed++;
      tick();
      if (out.status === "ok") {
        list = out.value!.slice(0, maxNuggets);
        for (const n of list) if (!introducedBy.has(n)) introducedBy.set(n, out.call ?? null);
      } else {
        result.failed++;
        opts.onNote?.(
          `Topic "${s.topicId}": nugget creation window ${
            k + 1
          } of ${ws_.length} failed (${out.reason}); the list was kept as it was`,
        );
      }
      w.forEach((p, i) =>
        passageRows.push({
          topicId: s.topicId,
          origin,
          ordinal: k * size + i + 1,
          passageId: p.passageId,
          windowIndex: k,
          text: p.text,
          grade: p.grade ?? null,
          call: out.call ?? null,
          status: out.status,
          raw: out.status === "ok" ? null : out.raw,
        })
      );
    }
    if (list.length) result.topics++;
    result.nuggets += list.length;
    list.forEach((text, i) =>
      nuggetRows.push({
        topicId: s.topicId,
        origin,
        ordinal: i + 1,
        text,
        importance: null,
        importanceBy: null,
        importanceCall: null,
        importanceRaw: null,
        kept: true,
        call: introducedBy.get(text) ?? null,
      })
    );
  }));
  for (const s of sources) {
    await clearTopicNuggets(ws, { topicId: s.topicId, origin, passages: true });
  }
  await writeNuggets(ws, nuggetRows);
  await writeNuggetPassages(ws, passageRows);
  return result;
}
