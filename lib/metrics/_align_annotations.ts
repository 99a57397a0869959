/** Aligning annotators' label files item by item; private to `@lib/metrics`. */
import type { HumanAnnotations, PassageAnnotation, ReportAnnotation } from "@lib/formats/mod.ts";

/** One aligned item: the labels of the annotators who gave one, in file order. */
export interface AlignedItem {
  topicId: string;
  /** `{topic}:report` for report-level files, the passage id for passage-level ones. */
  itemId: string;
  /** 0-based sub-question index. */
  question: number;
  /** The labels given, in annotator order (annotators without a label left out). */
  labels: number[];
  /** The 0-based annotator (file) index of each label. */
  raters: number[];
}

/** Every item some annotator labelled, and how many topics (reports or passages) some left out. */
export interface Alignment {
  kind: "report" | "passage";
  items: AlignedItem[];
  /** Reports (report-level) or passages (passage-level) labelled by only some annotators. */
  excluded: number;
  /** Passage-level sub-questions that some annotator of the passage did not rate (-1 or absent). */
  unrated: number;
  /** Report-level slots left out as "NA" placeholders (-2 in every file), counted once per topic. */
  naSlots: number;
}

/**
 * Aligns annotators' files by (topic, sub-question index) for reports and by
 * (topic, passage, sub-question index) for passages; never by line number.
 * Annotators may label different subsets (incomplete designs): an item holds
 * the labels of those who gave one.
 *
 * Report slots marked -2 ("NA" placeholder sub-questions) in every file that
 * labels the report are not items: left out and counted in `naSlots`.
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

/** Keys in first-seen order over all maps. */
function unionKeys<T>(maps: readonly Map<string, T>[]): string[] {
  const out = new Set<string>();
  for (const m of maps) for (const k of m.keys()) out.add(k);
  return [...out];
}

function alignReports(files: readonly HumanAnnotations[]): Alignment {
  const maps = files.map((f) =>
    new Map((f.items as ReportAnnotation[]).map((r) => [r.topicId, r]))
  );
  const items: AlignedItem[] = [];
  let excluded = 0;
  let naSlots = 0;
  for (const topicId of unionKeys(maps)) {
    const rows = maps.map((m) => m.get(topicId));
    const raters = rows.flatMap((r, k) => (r ? [k] : []));
    if (raters.length < files.length) excluded++;
    const f0 = raters[0], first = rows[f0]!;
    for (const k of raters) {
      const r = rows[k]!;
      if (r.answerability.length !== first.answerability.length) {
        throw new RangeError(
          `Topic "${topicId}" has ${first.answerability.length} labels in ${
            files[f0].file
          }:${first.line} ` +
            `but ${r.answerability.length} in ${files[k].file}:${r.line}; annotators must label ` +
            "the same sub-questions",
        );
      }
    }
    first.answerability.forEach((_, q) => {
      const labels = raters.map((k) => rows[k]!.answerability[q]);
      const na = labels.map((l) => l === -2);
      if (na.every(Boolean)) return void naSlots++;
      const i = na.findIndex(Boolean);
      if (i >= 0) {
        const j = na.findIndex((x) => !x);
        throw new RangeError(
          `Topic "${topicId}" sub-question ${q + 1} is an "NA" slot (-2) in ${
            files[raters[i]].file
          }:${rows[raters[i]]!.line} but labelled ${labels[j]} in ${files[raters[j]].file}:${
            rows[raters[j]]!.line
          }; NA placeholder slots must be -2 in every annotator's file`,
        );
      }
      items.push({ topicId, itemId: `${topicId}:report`, question: q, labels, raters });
    });
  }
  return { kind: "report", items, excluded, unrated: 0, naSlots };
}

function alignPassages(files: readonly HumanAnnotations[]): Alignment {
  const key = (p: PassageAnnotation) => `${p.topicId}\0${p.passageId}`;
  const maps = files.map((f) => new Map((f.items as PassageAnnotation[]).map((p) => [key(p), p])));
  const items: AlignedItem[] = [];
  let unrated = 0;
  let excluded = 0;
  for (const k of unionKeys(maps)) {
    const rows = maps.map((m) => m.get(k));
    const present = rows.flatMap((r, a) => (r ? [a] : []));
    if (present.length < files.length) excluded++;
    const first = rows[present[0]]!;
    const questions = [...new Set(present.flatMap((a) => [...rows[a]!.relevances.keys()]))]
      .sort((a, b) => a - b);
    for (const q of questions) {
      const raters = present.filter((a) => (rows[a]!.relevances.get(q) ?? -1) >= 0);
      if (raters.length < present.length) unrated++;
      if (raters.length === 0) continue;
      items.push({
        topicId: first.topicId,
        itemId: first.passageId,
        question: q,
        labels: raters.map((a) => rows[a]!.relevances.get(q)!),
        raters,
      });
    }
  }
  return { kind: "passage", items, excluded, unrated, naSlots: 0 };
}
