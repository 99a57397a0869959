// A progress renderer for Jupyter: one display that updates in place.

import type { ProgressEvent, ProgressFn } from "./types.ts";
import { progressLine } from "./_progress_line.ts";

/** A rich display bundle (MIME type -> content). */
export type TextMimeBundle = Record<string, string>;

/** Sends a bundle to the notebook: first as a new display, then as updates of it. */
export type DisplaySink = (bundle: TextMimeBundle, opts: { id: string; update: boolean }) => void;

function jupyterSink(): DisplaySink {
  type Jupyter = { broadcast(type: string, content: Record<string, unknown>): Promise<void> };
  let jupyter: Jupyter | undefined;
  try {
    // Outside the Deno kernel, reading Deno.jupyter throws instead of giving undefined.
    jupyter = (Deno as unknown as { jupyter?: Jupyter }).jupyter;
  } catch {
    jupyter = undefined;
  }
  if (!jupyter) return () => {};
  return (bundle, { id, update }) =>
    void jupyter.broadcast(update ? "update_display_data" : "display_data", {
      data: bundle,
      metadata: {},
      transient: { display_id: id },
    });
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * A progress renderer for Jupyter (Deno kernel): one display with an HTML
 * progress bar and the text line (rate, ETA), updated in place at most every
 * `intervalMs`. Outside a notebook it does nothing unless given a sink.
 *
 * @param opts `display` (default: the Deno kernel's broadcast), `intervalMs` (default 250),
 *   `now` (clock), `id` (display id, default random).
 * @returns A progress callback for the LLM layer.
 * @example
 * ```ts
 * import { lexicalJudge, notebookProgress } from "@lib/llm/mod.ts";
 * const judge = lexicalJudge();
 * const pairs = [{ id: "1", question: "Who won the race?", context: "Ann won the race." }];
 * await judge.rate(pairs, { onProgress: notebookProgress() });
 * ```
 */
export function notebookProgress(
  opts: { display?: DisplaySink; intervalMs?: number; now?: () => number; id?: string } = {},
): ProgressFn {
  const display = opts.display ?? jupyterSink();
  const interval = opts.intervalMs ?? 250;
  const now = opts.now ?? (() => performance.now());
  const id = opts.id ?? `crux-progress-${crypto.randomUUID()}`;
  let shown = false;
  let last = -Infinity;
  return (e: ProgressEvent) => {
    const end = e.done >= e.total;
    const t = now();
    // A wait before a retry is shown at once, whatever the interval.
    if (shown && !end && !e.waiting && t - last < interval) return;
    last = t;
    const text = progressLine(e);
    const html =
      `<div><progress value="${e.done}" max="${e.total}" style="width:20em"></progress> ` +
      `<code>${escape(text)}</code></div>`;
    display({ "text/plain": text, "text/html": html }, { id, update: shown });
    shown = true;
  };
}
