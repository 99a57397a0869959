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
import { decodeJsonl, type Fields } from "./_json.ts";
import { readText } from "./_lines.ts";

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
  for (const l of list) {
    const keypointId = l.string("keypoint_id", { coerce: true });
    const label = l.oneOf("label", ENTAILMENT_LABELS);
    const reason = l.string("reason", { optional: true });
    if (keypointId === undefined || label === undefined) continue;
    labels.push({ keypointId, label, ...(reason !== undefined ? { reason } : {}) });
  }
  return { qid, runId, line: f.line, labels };
}

/**
 * Parses a key point file.
 *
 * @param text JSONL text.
 * @param opts `file` names the input in errors.
 * @returns One record per question, in file order.
 * @throws {InputError} On malformed lines, with file, line and field.
 * @example
 * ```ts
 * import { parseKeyPoints } from "@lib/formats/mod.ts";
 * parseKeyPoints('{"qid": "q1", "keypoints": [{"id": "k1", "text": "The bridge fell."}]}\n', { file: "kp.jsonl" });
 * ```
 */
export function parseKeyPoints(text: string, opts: { file: string }): QuestionKeyPoints[] {
  return decodeJsonl(text, opts.file, decodeKeyPoints);
}

/**
 * Parses an entailment file.
 *
 * @param text JSONL text.
 * @param opts `file` names the input in errors.
 * @returns One record per (question, run), in file order.
 * @throws {InputError} On malformed lines or unknown labels, with file, line and field.
 * @example
 * ```ts
 * import { parseEntailments } from "@lib/formats/mod.ts";
 * parseEntailments('{"qid": "q1", "run_id": "r", "labels": [{"keypoint_id": "k1", "label": "yes"}]}\n', { file: "e.jsonl" });
 * ```
 */
export function parseEntailments(text: string, opts: { file: string }): Entailments[] {
  return decodeJsonl(text, opts.file, decodeEntailments);
}

/**
 * Reads a key point file (see {@linkcode parseKeyPoints}).
 *
 * @param path The JSONL file.
 * @returns The records.
 * @example
 * ```ts
 * import { readKeyPoints } from "@lib/formats/mod.ts";
 * const path = `${await Deno.makeTempDir()}/keypoints.jsonl`;
 * await Deno.writeTextFile(path, '{"qid": "q1", "keypoints": [{"id": "k1", "text": "The bridge fell."}]}\n');
 * const points = await readKeyPoints(path);
 * ```
 */
export async function readKeyPoints(path: string): Promise<QuestionKeyPoints[]> {
  return parseKeyPoints(await readText(path), { file: path });
}

/**
 * Reads an entailment file (see {@linkcode parseEntailments}).
 *
 * @param path The JSONL file.
 * @returns The records.
 * @example
 * ```ts
 * import { readEntailments } from "@lib/formats/mod.ts";
 * const path = `${await Deno.makeTempDir()}/entailments.jsonl`;
 * await Deno.writeTextFile(path, '{"qid": "q1", "run_id": "r", "labels": [{"keypoint_id": "k1", "label": "yes"}]}\n');
 * const labels = await readEntailments(path);
 * ```
 */
export async function readEntailments(path: string): Promise<Entailments[]> {
  return parseEntailments(await readText(path), { file: path });
}
