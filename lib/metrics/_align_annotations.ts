/** Aligning annotators' label files item by item; private to `@lib/metrics`. */
import type { HumanAnnotations, PassageAnnotation, ReportAnnotation } from "@lib/formats/mod.ts";

/** One aligned item: the labels of every annotator, in file order. */
export interface AlignedItem {
  topicId: string;
  /** `{topic}:report` for report-level files, the passage id for passage-level ones. */
  itemId: string;
  /** 0-based sub-question index. */
  question: number;
  labels: number[];
}

/** Items every annotator labelled, and how many topics (reports or passages) some left out. */
export interface Alignment {
  kind: "report" | "passage";
  items: AlignedItem[];
  /** Reports (report-level) or passages (passage-level) labelled by only some annotators. */
  excluded: number;
  /** Passage-level sub-question labels left out because some annotator wrote -1. */
  unrated: number;
  /** Report-level slots left out as "NA" placeholders (-2 in every file), counted once per topic. */
  naSlots: number;
}

/**
 * Aligns annotators' files by (topic, sub-question index) for reports and by
 * (topic, passage, sub-question index) for passages; never by line number.
 *
 * Report slots marked -2 ("NA" placeholder sub-questions) in every file are
 * not items: left out and counted in `naSlots`.
 *
 * @throws {RangeError} On fewer than two files, mixed kinds, report label lists of
 *   different lengths for one topic, or an NA slot in some files only (naming files and lines).
 */
export function alignAnnotations(files: readonly HumanAnnotations[]): Alignment {
  if (files.length < 2) {
    throw new RangeError(
      `Cannot compute agreement: need at least 2 annotator files, got ${files.length}`,
    );
  }
  const kind = files[0].kind;
  const other = files.find((f) => f.kind !== kind);
  if (other) {
    throw new RangeError(
      `Cannot align "${
        files[0].file
      }" (${kind}-level) with "${other.file}" (${other.kind}-level); ` +
        "give files of one kind",
    );
  }
  return kind === "report" ? alignReports(files) : alignPassages(files);
}

function alignReports(files: readonly HumanAnnotations[]): Alignment {
  const maps = files.map((f) =>
    new Map((f.items as ReportAnnotation[]).map((r) => [r.topicId, r]))
  );
  const items: AlignedItem[] = [];
  let excluded = 0;
  let naSlots = 0;
  for (const [topicId, first] of maps[0]) {
    const rows = maps.map((m) => m.get(topicId));
    if (rows.some((r) => r === undefined)) continue;
    rows.forEach((r, k) => {
      if (r!.answerability.length !== first.answerability.length) {
        throw new RangeError(
          `Topic "${topicId}" has ${first.answerability.length} labels in ${
            files[0].file
          }:${first.line} ` +
            `but ${r!.answerability.length} in ${files[k].file}:${
              r!.line
            }; annotators must label ` +
            "the same sub-questions",
        );
      }
    });
    first.answerability.forEach((_, q) => {
      const labels = rows.map((r) => r!.answerability[q]);
      const na = labels.map((l) => l === -2);
      if (na.every(Boolean)) return void naSlots++;
      const k = na.findIndex(Boolean);
      if (k >= 0) {
        const other = na.findIndex((x) => !x);
        throw new RangeError(
          `Topic "${topicId}" sub-question ${q + 1} is an "NA" slot (-2) in ${files[k].file}:${
            rows[k]!.line
          } but labelled ${labels[other]} in ${files[other].file}:${rows[other]!.line}; ` +
            "NA placeholder slots must be -2 in every annotator's file",
        );
      }
      items.push({ topicId, itemId: `${topicId}:report`, question: q, labels });
    });
  }
  const all = new Set(maps.flatMap((m) => [...m.keys()]));
  for (const t of all) if (maps.some((m) => !m.has(t))) excluded++;
  return { kind: "report", items, excluded, unrated: 0, naSlots };
}

function alignPassages(files: readonly HumanAnnotations[]): Alignment {
  const key = (p: PassageAnnotation) => `${p.topicId}\0${p.passageId}`;
  const maps = files.map((f) => new Map((f.items as PassageAnnotation[]).map((p) => [key(p), p])));
  const items: AlignedItem[] = [];
  let unrated = 0;
  for (const [k, first] of maps[0]) {
    const rows = maps.map((m) => m.get(k));
    if (rows.some((r) => r === undefined)) continue;
    const questions = [...first.relevances.keys()].sort((a, b) => a - b);
    for (const q of questions) {
      const labels = rows.map((r) => r!.relevances.get(q));
      if (labels.some((l) => l === undefined || l < 0)) {
        unrated++;
        continue;
      }
      items.push({
        topicId: first.topicId,
        itemId: first.passageId,
        question: q,
        labels: labels as number[],
      });
    }
  }
  const all = new Set(maps.flatMap((m) => [...m.keys()]));
  let excluded = 0;
  for (const k of all) if (maps.some((m) => !m.has(k))) excluded++;
  return { kind: "passage", items, excluded, unrated, naSlots: 0 };
}
