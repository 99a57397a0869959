// Judging (text, sub-question) items for coverage and storing each verdict in
// `subq_coverage`, shared by the coverage stage and the preference evaluation.
import { type WorkspaceLike, writeSubqCoverage } from "@lib/store/mod.ts";
import { judgeCoverage } from "./judge_coverage.ts";
import type { SubqStepOptions } from "./types.ts";
import { ProgressParts } from "@lib/llm/mod.ts";

/** One coverage question: a text (by its key) and a sub-question. */
export interface CoverageItem {
  key: string;
  subQuestion: string;
  text: string;
}

/** What {@linkcode judgeAndStoreCoverage} reports. */
export interface StoredCoverage {
  /** Judgments stored. */
  judged: number;
  /** Spans that do not occur in their text. */
  flagged: number;
  unparsed: number;
  failed: number;
  /** Each item's label by item key (null: failed or unparsed), when `keepAnswers` asked for it. */
  answered?: Map<string, boolean | null>;
}

/** Items judged and stored at a time: their prompts, not all of them, are held in memory. */
export const COVERAGE_SLICE = 10_000;

/**
 * Judges every item (keyed `textKey \0 subQuestion`) and stores the verdicts
 * under `judge`, a slice of `slice` items at a time (default
 * {@linkcode COVERAGE_SLICE}): a stage over a TREC-sized experiment (600,000
 * items) holds two slices' prompts and results, not all of them.
 *
 * Two slices are judged at once: a slice starts with the one before it, and the
 * one after starts once the older has been judged. So the model's connections do
 * not wait while a slice ends: its last answers, the commit of its calls and the
 * keys of the next slice. The two share the client's concurrency. Verdicts are
 * stored slice by slice, in order, one write at a time, while later slices are
 * judged. Progress events count over all items.
 */
export async function judgeAndStoreCoverage(
  ws: WorkspaceLike,
  items: ReadonlyMap<string, CoverageItem>,
  judge: string,
  opts: SubqStepOptions & { threshold?: number; keepAnswers?: boolean; slice?: number },
): Promise<StoredCoverage> {
  const list = [...items.entries()];
  const out: StoredCoverage = { judged: 0, flagged: 0, unparsed: 0, failed: 0 };
  if (opts.keepAnswers) out.answered = new Map();
  const size = Math.max(1, opts.slice ?? COVERAGE_SLICE);
  const progress = new ProgressParts(opts.onProgress, list.length);
  /** Slices being judged, oldest first. */
  const judging: { part: typeof list; results: ReturnType<typeof judgeCoverage> }[] = [];
  let writing: Promise<void> = Promise.resolve();
  /** Counts the oldest slice's verdicts and stores them after the slices before it. */
  const settle = async () => {
    const { part, results: pending } = judging.shift()!;
    const results = await pending;
    const rows = results.map((r, i) => ({
      textKey: part[i][1].key,
      subQuestion: part[i][1].subQuestion,
      judge,
      answered: r.answered,
      span: r.span,
      spanFound: r.spanFound,
      position: r.position,
      status: r.status,
      raw: r.raw ?? null,
    }));
    for (const r of results) {
      out.judged++;
      if (r.spanFound === false) out.flagged++;
      if (r.status === "unparsed") out.unparsed++;
      if (r.status === "failed") out.failed++;
      out.answered?.set(r.id, r.answered);
    }
    await writing;
    writing = writeSubqCoverage(ws, rows);
  };
  try {
    for (let at = 0; at < list.length; at += size) {
      const part = list.slice(at, at + size);
      const results = judgeCoverage(
        part.map(([id, x]) => ({ id, subQuestion: x.subQuestion, text: x.text })),
        { ...opts, onProgress: progress.part() },
      );
      // Awaited in turn by `settle`; marked handled so a failure before then is not unhandled.
      results.catch(() => {});
      judging.push({ part, results });
      if (judging.length === 2) await settle();
    }
    while (judging.length) await settle();
  } catch (error) {
    // Slices still judging end first, and what earlier slices judged is stored
    // before the error surfaces.
    await Promise.allSettled(judging.map((j) => j.results));
    await writing;
    throw error;
  }
  await writing;
  return out;
}
