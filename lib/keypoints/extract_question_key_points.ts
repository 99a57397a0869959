/**
 * Key point extraction per (question, document) with span checks.
 *
 * @module
 */
import type { KeyPoint, QuestionKeyPoints } from "@lib/formats/mod.ts";
import { findSpan } from "./find_span.ts";
import type {
  BackendCallOptions,
  KeyPointExtractor,
  KeyPointProblem,
  QuestionWithDocuments,
} from "./types.ts";

/** Result of {@linkcode extractQuestionKeyPoints}. */
export interface ExtractedKeyPoints {
  /** Original key points per question (ids `o1`, `o2`, ... in document order), with span statuses. */
  keypoints: QuestionKeyPoints[];
  /** Extraction round of each original, by question then id. */
  rounds: Map<string, Map<string, number>>;
  /** Key points kept but flagged: a span not found in the document, or no span at all. */
  flagged: number;
  /** Spans not found in their document. */
  unfoundSpans: number;
  /** Pairs whose extraction did not parse or failed (they give no key point). */
  problems: KeyPointProblem[];
}

/**
 * Extracts the key points of every (question, document) pair with `extractor`
 * (one or more rounds) and checks every supporting span against the document
 * (`findSpan`: exact, then white space and quote normalised). A key point whose
 * span cannot be found (or that has none) is kept, flagged in `spanStatus`
 * (`missing`) and counted.
 *
 * @param questions Questions with their documents.
 * @param extractor Offline or model-based backend.
 * @param opts `rounds` (default the extractor's: 2), signal and progress.
 * @returns Key points per question (in input order), counts and problems.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractQuestionKeyPoints, offlineExtractor } from "@lib/keypoints/mod.ts";
 * const q = { qid: "q1", question: "When did the bridge open?", documents: [{ docId: "d1", text: "The bridge opened in 1932." }] };
 * const r = await extractQuestionKeyPoints([q], offlineExtractor());
 * assert.deepEqual(r.keypoints[0].keypoints[0].spanStatus, ["exact"]);
 * ```
 */
export async function extractQuestionKeyPoints(
  questions: readonly QuestionWithDocuments[],
  extractor: KeyPointExtractor,
  opts: BackendCallOptions & { rounds?: number } = {},
): Promise<ExtractedKeyPoints> {
  const pairs = questions.flatMap((q) =>
    q.documents.map((d) => ({ q, d, id: `${q.qid}\u0000${d.docId}` }))
  );
  const results = await extractor.extract(
    pairs.map((p) => ({ id: p.id, question: p.q.question, document: p.d.text })),
    opts,
  );
  const out = new Map(questions.map((q) => [q.qid, [] as KeyPoint[]]));
  const rounds = new Map(questions.map((q) => [q.qid, new Map<string, number>()]));
  let flagged = 0, unfoundSpans = 0;
  const problems: KeyPointProblem[] = [];
  results.forEach((r, i) => {
    const { q, d } = pairs[i];
    if (r.status !== "ok") {
      problems.push({
        step: "extract",
        qid: q.qid,
        item: d.docId,
        status: r.status,
        reason: r.error ?? "",
        ...(r.raw !== undefined ? { raw: r.raw } : {}),
      });
    }
    const list = out.get(q.qid)!;
    for (const p of r.points) {
      const spanStatus = p.spans.map((s) => findSpan(s, d.text));
      const missing = spanStatus.filter((s) => s === "missing").length;
      unfoundSpans += missing;
      if (missing || !p.spans.length) flagged++;
      const id = `o${list.length + 1}`;
      rounds.get(q.qid)!.set(id, p.round);
      list.push({ id, text: p.text, docId: d.docId, spans: p.spans, mergedFrom: [], spanStatus });
    }
  });
  return {
    keypoints: questions.map((q) => ({ qid: q.qid, keypoints: out.get(q.qid)! })),
    rounds,
    flagged,
    unfoundSpans,
    problems,
  };
}
