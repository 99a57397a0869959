// One-line text of a progress event, shared by the renderers.
import type { ProgressEvent } from "./types.ts";

/** A length of time as people read it: `42s`, `3m05s`, `2h07m` (`?` when unknown). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m}m${String(s % 60).padStart(2, "0")}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

/** A wait: tenths of a second below 10 s, else as {@link formatDuration}. */
function waitText(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : formatDuration(ms);
}

/** The UTC time of day `ms` from now, e.g. `04:22:13 UTC`. */
export function clockIn(ms: number, now = Date.now()): string {
  return `${new Date(now + ms).toISOString().slice(11, 19)} UTC`;
}

export function progressLine(e: ProgressEvent, now = Date.now()): string {
  const pct = e.total ? ((100 * e.done) / e.total).toFixed(1) : "100.0";
  const parts = [
    `${e.step} ${e.done}/${e.total} (${pct}%)`,
    `cached ${e.cached}`,
    `failed ${e.failed}`,
    `${e.rate.toFixed(1)}/s`,
    e.done === e.total ? `took ${formatDuration(e.elapsedMs)}` : `ETA ${formatDuration(e.etaMs)}`,
  ];
  if (e.waits) parts.push(`retry waits ${e.waits.count} (${waitText(e.waits.totalMs)})`);
  const w = e.waiting;
  if (w) {
    const asked = w.retryAfterMs === undefined
      ? ""
      : `; Retry-After ${waitText(w.retryAfterMs)}${w.capped ? " capped" : ""}`;
    parts.push(
      `waiting ${waitText(w.waitMs)} (until ${
        clockIn(w.waitMs, now)
      }) before attempt ${w.attempt} at ${w.url}${asked} (${w.reason.slice(0, 120)})`,
    );
  }
  return parts.join("  ");
}
