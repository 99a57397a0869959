/**
 * Nugget importance (AutoNuggetizer): vital or okay, in windows of 10.
 *
 * @module
 */
import { readNuggetPassageTexts, type WorkspaceLike, writeNuggets } from "@lib/store/mod.ts";
import type { LabelWindow, NuggetBackend, WindowCallOptions } from "./types.ts";
import { judgedNuggets, type NuggetRow, readNuggetRows, topicQueries } from "./_read.ts";
import { relevantPassages } from "./relevant_passages.ts";
import { windows } from "./_windows.ts";

/** Options of {@linkcode labelNuggets}. */
export interface LabelNuggetsOptions extends WindowCallOptions {
  backend: NuggetBackend;
  /** Origin of the nuggets to label (`created:offline`, `file:nuggets.jsonl`). */
  origin: string;
  /** Nuggets per call. Default 10. */
  window?: number;
  /** Nuggets kept per topic after sorting vital first. Default 20. */
  keep?: number;
  /** Label nuggets that already carry an importance (e.g. from a file). Default false. */
  relabel?: boolean;
  onNote?: (message: string) => void;
}

/** What {@linkcode labelNuggets} did. */
export interface LabelNuggetsResult {
  topics: number;
  labelled: number;
  vital: number;
  okay: number;
  /** Nuggets whose window output could not be read (importance `failed`). */
  failed: number;
  windows: number;
  /** Nuggets dropped past the top `keep`. */
  dropped: number;
}

/**
 * Labels nuggets `vital` or `okay` in windows of `window` (in creation order,
 * one label per nugget; the backend re-asks a bounded number of times, then the
 * window's nuggets get importance `failed` with the raw output kept), then keeps
 * each topic's first `keep` nuggets after a stable sort vital first (failed
 * ones last); the others get `kept = false` and are not assigned. Nuggets that
 * already have an importance are left as they are unless `relabel`.
 *
 * @param ws The workspace.
 * @param opts Backend, origin (required), window 10, keep 20, relabel.
 * @returns Counts.
 * @example
 * ```ts
 * import { labelNuggets, offlineNuggetBackend } from "@lib/nuggets/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const r = await labelNuggets(ws, { backend: offlineNuggetBackend(), origin: "created:offline" });
 * ```
 */
export async function labelNuggets(
  ws: WorkspaceLike,
  opts: LabelNuggetsOptions,
): Promise<LabelNuggetsResult> {
  const size = opts.window ?? 10;
  const keep = opts.keep ?? 20;
  const byTopic = await readNuggetRows(ws, opts.origin);
  const shown = await readNuggetPassageTexts(ws, opts.origin);
  // Topics without recorded passages (imported nuggets) fall back to their relevant
  // passages, which only the offline backend reads.
  const needsFallback = opts.backend.offline &&
    [...byTopic.keys()].some((t) => !shown.some((p) => p.topicId === t));
  const fallback = new Map(
    needsFallback
      ? (await relevantPassages(ws)).map((s) => [s.topicId, s.passages.map((p) => p.text)])
      : [],
  );
  const queries = await topicQueries(ws);
  const query = (t: string) => queries.get(t) ?? t;
  const tasks: { rows: NuggetRow[]; w: LabelWindow }[] = [];
  for (const [topicId, rows] of byTopic) {
    const todo = rows.filter((r) => opts.relabel || r.importance === null);
    const passages = shown.filter((p) => p.topicId === topicId).map((p) => p.text);
    for (const w of windows(todo, size)) {
      tasks.push({
        rows: w,
        w: {
          query: query(topicId),
          nuggets: w.map((r) => r.text),
          passages: passages.length ? passages : fallback.get(topicId) ?? [],
        },
      });
    }
  }
  const outs = await opts.backend.label(tasks.map((t) => t.w), opts);
  const result: LabelNuggetsResult = {
    topics: byTopic.size,
    labelled: 0,
    vital: 0,
    okay: 0,
    failed: 0,
    windows: tasks.length,
    dropped: 0,
  };
  const updated = new Map<string, NuggetRow>();
  tasks.forEach((t, i) => {
    const out = outs[i];
    t.rows.forEach((r, j) => {
      const importance = out.status === "ok" ? out.value![j] : "failed";
      result.labelled++;
      result[importance]++;
      updated.set(`${r.topicId}\0${r.ordinal}`, {
        ...r,
        importance,
        importanceBy: opts.backend.name,
        importanceCall: out.call ?? null,
        importanceRaw: out.status === "ok" ? null : out.raw,
      });
    });
    if (out.status === "failed") {
      opts.onNote?.(
        `Topic "${
          t.rows[0].topicId
        }": importance of ${t.rows.length} nuggets failed (${out.reason}); labelled failed`,
      );
    }
  });
  const rows: NuggetRow[] = [];
  for (const [topicId, list] of byTopic) {
    const merged = list.map((r) => updated.get(`${topicId}\0${r.ordinal}`) ?? r);
    const kept = new Set(
      judgedNuggets(merged.map((r) => ({ ...r, kept: true }))).slice(0, keep).map((r) => r.ordinal),
    );
    result.dropped += merged.length - kept.size;
    rows.push(...merged.map((r) => ({ ...r, kept: kept.has(r.ordinal) })));
  }
  await writeNuggets(ws, rows);
  return result;
}
