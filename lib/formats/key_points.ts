/**
 * Key point files (Long2RAG-style, the workbench's own layout), JSONL:
 * - key points: `{"qid", "keypoints": [{"id", "text", "doc_id", "spans": [text, ...],
 *   "merged_from": [original id, ...], "span_status"?: ["exact"|"normalized"|"missing", ...]}]}`;
 * - entailments: `{"qid", "run_id", "labels": [{"keypoint_id", "label", "reason"}]}`,
 *   labels `yes|no|neutral` (Long2RAG; `contradicts` when asked for separately)
 *   or `supported|omitted|contradicted`.
 *
 * @module
 */
import { decodeJsonl, decodeJsonlFile, type Decoder, type Fields } from "./_json.ts";
import { countRepeats, once, Repeats, textHash } from "./_repeats.ts";

/** Options of the key point and entailment readers. */
export interface KeyPointReadOptions {
  /**
   * Receives the number of lines that repeated an earlier line of the same
   * question (and run) exactly, which are dropped; a repeat with other content
   * is an error naming both lines.
   */
  onDuplicates?: (count: number) => void;
}

/** One key point of a question. */
export interface KeyPoint {
  id: string;
  text: string;
  docId?: string;
  spans: string[];
  mergedFrom: string[];
  /**
   * Per span, where it was found in its document (`exact`, `normalized`: after
   * white space and quote normalisation, `missing`); absent when never checked.
   */
  spanStatus?: SpanStatus[];
}

/** Where a key point's supporting span was found in its document. */
export type SpanStatus = "exact" | "normalized" | "missing";

/** Span statuses accepted. */
export const SPAN_STATUSES: readonly SpanStatus[] = ["exact", "normalized", "missing"];

/** The key points of one question. */
export interface QuestionKeyPoints {
  qid: string;
  keypoints: KeyPoint[];
}

/** Entailment labels accepted. */
export const ENTAILMENT_LABELS = [
  "yes",
  "no",
  "neutral",
  "contradicts",
  "supported",
  "omitted",
  "contradicted",
] as const;

/** One label of a key point for a response. */
export interface KeyPointLabelRecord {
  keypointId: string;
  label: (typeof ENTAILMENT_LABELS)[number];
  reason?: string;
}

/** The labels of one run's response to one question. */
export interface Entailments {
  qid: string;
  runId: string;
  /** 1-based line in the file. */
  line: number;
  labels: KeyPointLabelRecord[];
}

const isStatus = (x: string): x is SpanStatus => (SPAN_STATUSES as readonly string[]).includes(x);

function decodeKeyPoints(f: Fields): QuestionKeyPoints | undefined {
  const qid = f.string("qid", { coerce: true });
  const list = f.objects("keypoints");
  if (qid === undefined || list === undefined) return undefined;
  const keypoints: KeyPoint[] = [];
  const ids = new Set<string>();
  for (const k of list) {
    const id = k.string("id", { coerce: true });
    const text = k.string("text");
    const docId = k.string("doc_id", { optional: true, coerce: true });
    const spans = k.strings("spans", { optional: true }) ?? [];
    const mergedFrom = k.strings("merged_from", { optional: true, coerce: true }) ?? [];
    const status = k.strings("span_status", { optional: true });
    if (id === undefined || text === undefined) continue;
    if (status && (status.length !== spans.length || status.some((x) => !isStatus(x)))) {
      return k.fail("span_status", "expected exact, normalized or missing for each span");
    }
    if (ids.has(id)) return f.fail("keypoints", `key point id "${id}" is listed twice`);
    ids.add(id);
    keypoints.push({
      id,
      text,
      ...(docId !== undefined ? { docId } : {}),
      spans,
      mergedFrom,
      ...(status ? { spanStatus: status as SpanStatus[] } : {}),
    });
  }
  return { qid, keypoints };
}

function decodeEntailments(f: Fields): Entailments | undefined {
  const qid = f.string("qid", { coerce: true });
  const runId = f.string("run_id", { coerce: true });
  const list = f.objects("labels");
  if (qid === undefined || runId === undefined || list === undefined) return undefined;
  const labels: KeyPointLabelRecord[] = [];
  const given = new Map<string, KeyPointLabelRecord>();
  for (const l of list) {
    const keypointId = l.string("keypoint_id", { coerce: true });
    const label = l.oneOf("label", ENTAILMENT_LABELS);
    const reason = l.string("reason", { optional: true });
    if (keypointId === undefined || label === undefined) continue;
    const earlier = given.get(keypointId);
    if (earlier) {
      if (earlier.label === label) continue; // the same label again
      return l.fail(
        "keypoint_id",
        `key point "${keypointId}" is labelled twice on this line ("${earlier.label}", then "${label}"); keep one label`,
      );
    }
    const record = { keypointId, label, ...(reason !== undefined ? { reason } : {}) };
    given.set(keypointId, record);
    labels.push(record);
  }
  return { qid, runId, line: f.line, labels };
}

function keyPointsOnce(repeats: Repeats): Decoder<QuestionKeyPoints> {
  return once(
    decodeKeyPoints,
    repeats,
    (r) => r.qid,
    "qid",
    (r) => `question ${JSON.stringify(r.qid)}`,
  );
}

function entailmentsOnce(repeats: Repeats): Decoder<Entailments> {
  return (f) => {
    const r = decodeEntailments(f);
    if (r === undefined || !f.ok) return undefined;
    return repeats.record(
      f,
      r,
      JSON.stringify([r.qid, r.runId]),
      textHash(JSON.stringify(r.labels)),
      "run_id",
      `run ${JSON.stringify(r.runId)} on question ${JSON.stringify(r.qid)}`,
    );
  };
}

/**
 * Parses a key point file. A line repeating an earlier line of the same
 * question exactly is dropped (counted through `onDuplicates`); the same
 * question with other key points is an error naming both lines.
 *
 * @param text JSONL text.
 * @param opts `file` names the input in errors; `onDuplicates`.
 * @returns One record per question, in file order.
 * @throws {InputError} On malformed lines or a conflicting repeat, with file, line and field.
 * @example
 * ```ts
 * import { parseKeyPoints } from "@lib/formats/mod.ts";
 * parseKeyPoints('{"qid": "q1", "keypoints": [{"id": "k1", "text": "The bridge fell."}]}\n', { file: "kp.jsonl" });
 * ```
 */
export function parseKeyPoints(
  text: string,
  opts: KeyPointReadOptions & { file: string },
): QuestionKeyPoints[] {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonl(text, opts.file, keyPointsOnce(repeats)),
  );
}

/**
 * Parses an entailment file. A line repeating an earlier line of the same
 * question and run exactly is dropped (counted through `onDuplicates`); the
 * same question and run with other labels is an error naming both lines, as is
 * a key point labelled twice differently on one line.
 *
 * @param text JSONL text.
 * @param opts `file` names the input in errors; `onDuplicates`.
 * @returns One record per (question, run), in file order.
 * @throws {InputError} On malformed lines, unknown labels or conflicting repeats, with file, line and field.
 * @example
 * ```ts
 * import { parseEntailments } from "@lib/formats/mod.ts";
 * parseEntailments('{"qid": "q1", "run_id": "r", "labels": [{"keypoint_id": "k1", "label": "yes"}]}\n', { file: "e.jsonl" });
 * ```
 */
export function parseEntailments(
  text: string,
  opts: KeyPointReadOptions & { file: string },
): Entailments[] {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonl(text, opts.file, entailmentsOnce(repeats)),
  );
}

/**
 * Reads a key point file (streamed; see {@linkcode parseKeyPoints}).
 *
 * @param path The JSONL file.
 * @param opts `onDuplicates` as in {@linkcode parseKeyPoints}.
 * @returns The records.
 * @example
 * ```ts
 * import { readKeyPoints } from "@lib/formats/mod.ts";
 * const path = `${await Deno.makeTempDir()}/keypoints.jsonl`;
 * await Deno.writeTextFile(path, '{"qid": "q1", "keypoints": [{"id": "k1", "text": "The bridge fell."}]}\n');
 * const points = await readKeyPoints(path);
 * ```
 */
export function readKeyPoints(
  path: string,
  opts: KeyPointReadOptions = {},
): Promise<QuestionKeyPoints[]> {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonlFile(path, keyPointsOnce(repeats)),
  );
}

/**
 * Reads an entailment file (streamed; see {@linkcode parseEntailments}).
 *
 * @param path The JSONL file.
 * @param opts `onDuplicates` as in {@linkcode parseEntailments}.
 * @returns The records.
 * @example
 * ```ts
 * import { readEntailments } from "@lib/formats/mod.ts";
 * const path = `${await Deno.makeTempDir()}/entailments.jsonl`;
 * await Deno.writeTextFile(path, '{"qid": "q1", "run_id": "r", "labels": [{"keypoint_id": "k1", "label": "yes"}]}\n');
 * const labels = await readEntailments(path);
 * ```
 */
export function readEntailments(
  path: string,
  opts: KeyPointReadOptions = {},
): Promise<Entailments[]> {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonlFile(path, entailmentsOnce(repeats)),
  );
}
