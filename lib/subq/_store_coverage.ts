// Judging (text, sub-question) items for coverage and storing each verdict in
// `subq_coverage`, shared by the coverage stage and the preference evaluation.
import { type WorkspaceLike, writeSubqCoverage } from "@lib/store/mod.ts";
import { type CoverageResult, judgeCoverage } from "./judge_coverage.ts";
import type { SubqStepOptions } from "./types.ts";

/** One coverage question: a text (by its key) and a sub-question. */
export interface CoverageItem {
  key: string;
  subQuestion: string;
  text: string;
}

/**
 * Judges every item (keyed `textKey \0 subQuestion`) and stores the verdicts
 * under `judge`; returns the results by item key.
 */
export async function judgeAndStoreCoverage(
  ws: WorkspaceLike,
  items: ReadonlyMap<string, CoverageItem>,
  judge: string,
  opts: SubqStepOptions & { threshold?: number },
): Promise<Map<string, CoverageResult>> {
  const list = [...items.entries()];
  const results = await judgeCoverage(
    list.map(([id, x]) => ({ id, subQuestion: x.subQuestion, text: x.text })),
    opts,
  );
  const rows = results.map((r, i) => ({
    textKey: list[i][1].key,
    subQuestion: list[i][1].subQuestion,
    judge,
    answered: r.answered,
    span: r.span,
    spanFound: r.spanFound,
    position: r.position,
    status: r.status,
    raw: r.raw ?? null,
  }));
  await writeSubqCoverage(ws, rows);
  return new Map(results.map((r) => [r.id, r]));
}
