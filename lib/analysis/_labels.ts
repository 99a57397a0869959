/** Backend labelling of every table and figure (private). */
import { backendNote } from "@lib/report/mod.ts";
import type { CruxData } from "./types.ts";

/** Backend label lines of an analysis. */
export interface Labelling {
  /** `offline backends: lexical judge, extractive generator` (or `backends: ...`). */
  note: string;
  /** ` (offline backends)` when every backend is offline, else empty; appended to captions and titles. */
  suffix: string;
  /** Table notes: the backend note, then which judge rated passages and reports when they differ. */
  notes: string[];
}

/** Describes the backends behind the data, labelling offline results. */
export function labelling(data: CruxData): Labelling {
  const backends = { ...data.backends };
  if (!Object.values(backends).some(Boolean)) {
    backends.judge = data.reportJudge ?? data.passageJudge;
  }
  const note = backendNote(backends);
  const notes = [note];
  if (data.reportJudge && data.reportJudge !== data.passageJudge) {
    notes.push(`Passage ratings by ${data.passageJudge}; report ratings by ${data.reportJudge}.`);
  }
  return { note, suffix: note.startsWith("offline") ? " (offline backends)" : "", notes };
}
