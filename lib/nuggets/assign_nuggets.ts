/**
 * Nugget assignment (AutoNuggetizer): every kept nugget of a topic against
 * every answer to it, in windows of 10.
 *
 * @module
 */
import {
  clearNuggetAssignments,
  readGeneratedAnswers,
  type WorkspaceLike,
  writeNuggetAssignments,
} from "@lib/store/mod.ts";
import type { AssignWindow, NuggetBackend, WindowCallOptions } from "./types.ts";
import { judgedNuggets, type NuggetRow, readNuggetRows, topicQueries } from "./_read.ts";
import { windows } from "./_windows.ts";

/** Options of {@linkcode assignNuggets}. */
export interface AssignNuggetsOptions extends WindowCallOptions {
  backend: NuggetBackend;
  /** Origin of the nuggets (`created:offline`, `file:nuggets.jsonl`). */
  origin: string;
  /** Answer runs (rows of `generations`). Default: every run. */
  runs?: readonly string[];
  /** Nuggets per call. Default 10. */
  window?: number;
  onNote?: (message: string) => void;
}

/** What {@linkcode assignNuggets} did. */
export interface AssignNuggetsResult {
  /** The judge recorded with the labels (the backend's `judge`). */
  judge: string;
  answers: number;
  /** Answers whose topic has no nuggets of the origin (not assigned). */
  withoutNuggets: number;
  /** Labels written: one per kept nugget per answer. */
  labels: number;
  /** Labels `failed` (window output unreadable after re-asks). */
  failed: number;
  windows: number;
}

/**
 * Assigns each answer (a `generations` row) every kept nugget of its topic
 * (vital first, then creation order) in windows of `window`: `support`,
 * `partial_support` or `not_support`; a window whose output cannot be read
 * after the backend's bounded re-asks gets `failed` for each of its nuggets with
 * the raw output kept, so every nugget of every answer has exactly one label.
 * Replaces the runs' earlier labels of this origin and judge.
 *
 * @param ws The workspace.
 * @param opts Backend, origin (required), runs, window 10.
 * @returns Counts.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { assignNuggets, offlineNuggetBackend } from "@lib/nuggets/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const r = await assignNuggets(ws, { backend: offlineNuggetBackend(), origin: "created:offline" });
 * assert.equal(r.judge, "lexical-nuggets");
 * ```
 */
export async function assignNuggets(
  ws: WorkspaceLike,
  opts: AssignNuggetsOptions,
): Promise<AssignNuggetsResult> {
  const size = opts.window ?? 10;
  const judge = opts.backend.judge;
  const byTopic = await readNuggetRows(ws, opts.origin);
  const queries = await topicQueries(ws);
  const answers = await readGeneratedAnswers(ws, opts.runs);
  const tasks: { run: string; rows: NuggetRow[]; w: AssignWindow }[] = [];
  const result: AssignNuggetsResult = {
    judge,
    answers: answers.length,
    withoutNuggets: 0,
    labels: 0,
    failed: 0,
    windows: 0,
  };
  for (const a of answers) {
    const nuggets = judgedNuggets(byTopic.get(a.topicId) ?? []);
    if (!nuggets.length) {
      result.withoutNuggets++;
      continue;
    }
    for (const w of windows(nuggets, size)) {
      tasks.push({
        run: a.run,
        rows: w,
        w: {
          query: queries.get(a.topicId) ?? a.topicId,
          answer: a.text ?? "",
          nuggets: w.map((r) => r.text),
        },
      });
    }
  }
  if (result.withoutNuggets) {
    opts.onNote?.(
      `${result.withoutNuggets} answers have no nuggets of ${opts.origin} for their topic and were not assigned`,
    );
  }
  const outs = await opts.backend.assign(tasks.map((t) => t.w), opts);
  result.windows = tasks.length;
  const rows: object[] = [];
  tasks.forEach((t, i) => {
    const out = outs[i];
    t.rows.forEach((r, j) => {
      const label = out.status === "ok" ? out.value![j] : "failed";
      if (label === "failed") result.failed++;
      rows.push({
        run: t.run,
        topicId: r.topicId,
        origin: opts.origin,
        ordinal: r.ordinal,
        judge,
        label,
        call: out.call ?? null,
        raw: out.status === "ok" && !opts.backend.offline ? null : out.raw,
      });
    });
  });
  result.labels = rows.length;
  if (result.failed) {
    opts.onNote?.(
      `${result.failed} nugget labels failed after re-asks (kept as failed, raw text stored)`,
    );
  }
  const runs = opts.runs ?? [...new Set(answers.map((a) => a.run))];
  for (const run of runs) {
    await clearNuggetAssignments(ws, { run, origin: opts.origin, judge });
  }
  await writeNuggetAssignments(ws, rows);
  return result;
}
