/**
 * Annotator label files of the CRUX human study, one JSONL file per annotator:
 * - report-level answerability, one line per report:
 *   `{"id": topic, "question_based_nugget": {sub-question: span or ""},
 *   "answerability": [0|1|-2, ...], "coverage": share}`, where -2 marks a slot
 *   whose sub-question is the release's "NA" placeholder (not an item);
 * - passage-level ratings, one line per (topic, passage):
 *   `{"id": topic, "document": passage id, "relevances": {"0": 0..5 or -1, ...},
 *   "rationales": {"0": text, ...}}`.
 * The kind of a file is read from its first record; a file mixing both is an error.
 *
 * @module
 */
import { decodeJsonl, type Fields } from "./_json.ts";
import { InputError } from "./input_error.ts";
import { readText } from "./_lines.ts";

/** One annotator's labels of one report: answerability 0/1 per sub-question, in order. */
export interface ReportAnnotation {
  topicId: string;
  /** 1-based line in the annotator's file. */
  line: number;
  /** One label per sub-question slot as in the file: 0, 1, or -2 for an "NA" placeholder slot. */
  answerability: number[];
  /** 0-based slots holding -2 ("NA" placeholder sub-questions, not items); empty when none. */
  naSlots: number[];
  /**
   * The file's `coverage`, when given: checked to be the share of 1s over all
   * slots (as released, NA slots in the denominator) or over the real ones.
   */
  coverage?: number;
  /** Supporting span per sub-question text ("" when unanswered), when given. */
  spans?: Record<string, string>;
}

/** One annotator's ratings of one passage: sub-question index -> 0..5, -1 = not rated. */
export interface PassageAnnotation {
  topicId: string;
  passageId: string;
  line: number;
  relevances: Map<number, number>;
}

/** One annotator's file, by kind. */
export type HumanAnnotations =
  | { kind: "report"; file: string; items: ReportAnnotation[] }
  | { kind: "passage"; file: string; items: PassageAnnotation[] };

/** The label of a slot whose sub-question is the release's "NA" placeholder. */
const NA = -2;

/** Rounding allowed between `coverage` and the mean of `answerability` (files round to 3 places). */
const COVERAGE_SLACK = 0.0051;

function decodeReport(f: Fields): ReportAnnotation | undefined {
  const topicId = f.string("id", { coerce: true });
  const list = f.array("answerability");
  const coverage = f.number("coverage", { optional: true });
  const nuggets = f.object("question_based_nugget", { optional: true });
  if (topicId === undefined || list === undefined) return undefined;
  const naSlots: number[] = [];
  for (let i = 0; i < list.length; i++) {
    if (list[i] === NA) naSlots.push(i);
    else if (list[i] !== 0 && list[i] !== 1) {
      return f.fail(
        `answerability[${i}]`,
        `expected 0, 1 or -2 (an "NA" placeholder slot), found ${JSON.stringify(list[i])}`,
      );
    }
  }
  if (list.length === 0) {
    return f.fail("answerability", "empty list; expected one 0|1 per sub-question");
  }
  const ones = (list as number[]).filter((v) => v === 1).length;
  const real = list.length - naSlots.length;
  const released = ones / list.length;
  const mean = real ? ones / real : released;
  if (
    coverage !== undefined && Math.abs(coverage - released) > COVERAGE_SLACK &&
    Math.abs(coverage - mean) > COVERAGE_SLACK
  ) {
    const shares = naSlots.length
      ? `${released.toFixed(4)} over all ${list.length} slots, ${
        mean.toFixed(4)
      } over the ${real} real ones`
      : mean.toFixed(4);
    return f.fail(
      "coverage",
      `${coverage} is not the share of 1s in answerability (${shares}); fix one of the two`,
    );
  }
  const out: ReportAnnotation = {
    topicId,
    line: f.line,
    answerability: list as number[],
    naSlots,
  };
  if (coverage !== undefined) out.coverage = coverage;
  if (nuggets) {
    const spans: Record<string, string> = {};
    for (const key of Object.keys(nuggets.obj)) {
      const v = nuggets.string(key);
      if (v !== undefined) spans[key] = v;
    }
    out.spans = spans;
  }
  return out;
}

function decodePassage(f: Fields): PassageAnnotation | undefined {
  const topicId = f.string("id", { coerce: true });
  const passageId = f.string("document", { coerce: true });
  const rel = f.object("relevances");
  if (topicId === undefined || passageId === undefined || rel === undefined) return undefined;
  const relevances = new Map<number, number>();
  for (const [key, value] of Object.entries(rel.obj)) {
    if (!/^(0|[1-9][0-9]{0,3})$/.test(key)) {
      return rel.fail(key, "expected a sub-question index (0, 1, 2, ...) as key");
    }
    if (typeof value !== "number" || !Number.isInteger(value) || value < -1 || value > 5) {
      return rel.fail(key, `expected an integer from -1 to 5, found ${JSON.stringify(value)}`);
    }
    relevances.set(Number(key), value);
  }
  return { topicId, passageId, line: f.line, relevances };
}

/**
 * Parses one annotator's label file (either kind; see the module doc). A line
 * repeating an earlier line's labels exactly is dropped (counted through
 * `onDuplicates`); a topic (report-level) or (topic, passage) pair labelled
 * twice differently is an error naming both lines.
 *
 * @param text JSONL text.
 * @param opts `file` names the input in errors; `onDuplicates`.
 * @returns The file's kind and its records in file order.
 * @throws {InputError} On malformed lines, mixed kinds, repeated items or an empty file.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const a = parseHumanAnnotations(
 *   '{"id": "t1", "answerability": [1, 0], "coverage": 0.5}\n',
 *   { file: "annotator_a.jsonl" },
 * );
 * assert.equal(a.kind, "report");
 * ```
 */
export function parseHumanAnnotations(
  text: string,
  opts: { file: string; onDuplicates?: (count: number) => void },
): HumanAnnotations {
  const first = text.split("\n").find((l) => l.trim() !== "");
  if (first === undefined) {
    throw new InputError([{ file: opts.file, line: 0, message: "empty file; expected JSONL" }]);
  }
  const kind = /"answerability"\s*:/.test(first) ? "report" : "passage";
  const problems: { file: string; line: number; field?: string; message: string }[] = [];
  const seen = new Map<string, { line: number; labels: string }>();
  let dropped = 0;
  /** True to keep the item; an exact repeat is dropped and counted, another is a problem. */
  const check = (key: string, item: { line: number }, what: string): boolean => {
    const { line, ...rest } = item;
    const labels = JSON.stringify(rest);
    const earlier = seen.get(key);
    if (earlier === undefined) {
      seen.set(key, { line, labels });
      return true;
    }
    if (earlier.labels === labels) dropped++;
    else {
      problems.push({
        file: opts.file,
        line,
        message: `${what} is already labelled on line ${earlier.line}`,
      });
    }
    return false;
  };
  if (kind === "report") {
    const items = decodeJsonl(text, opts.file, (f) => {
      if (f.has("relevances")) {
        return f.fail("relevances", "passage-level line in a report-level file");
      }
      return decodeReport(f);
    });
    const kept = items.filter((r) => check(r.topicId, r, `report of topic "${r.topicId}"`));
    if (problems.length) throw new InputError(problems);
    opts.onDuplicates?.(dropped);
    return { kind, file: opts.file, items: kept };
  }
  const items = decodeJsonl(text, opts.file, (f) => {
    if (f.has("answerability")) {
      return f.fail("answerability", "report-level line in a passage-level file");
    }
    return decodePassage(f);
  });
  const kept = items.filter((p) =>
    check(`${p.topicId}\0${p.passageId}`, p, `passage "${p.passageId}" of topic "${p.topicId}"`)
  );
  if (problems.length) throw new InputError(problems);
  opts.onDuplicates?.(dropped);
  return { kind, file: opts.file, items: kept };
}

/**
 * Reads one annotator's label file (see {@linkcode parseHumanAnnotations}).
 *
 * @param path The JSONL file.
 * @returns The file's kind and records.
 * @throws {InputError} As {@linkcode parseHumanAnnotations}; `Deno.errors.NotFound` when missing.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const path = `${await Deno.makeTempDir()}/annotator_a.jsonl`;
 * await Deno.writeTextFile(path, '{"id": "t1", "answerability": [1, 0], "coverage": 0.5}\n');
 * const labels = await readHumanAnnotations(path);
 * assert.equal(labels.kind, "report");
 * ```
 */
export async function readHumanAnnotations(path: string): Promise<HumanAnnotations> {
  return parseHumanAnnotations(await readText(path), { file: path });
}
