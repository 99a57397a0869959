/**
 * Key point precision: the response's own statements checked against its documents.
 *
 * @module
 */
import { splitSentences } from "@lib/text/mod.ts";
import type {
  BackendCallOptions,
  EntailmentJudge,
  EntailmentLabel,
  KeyPointProblem,
} from "./types.ts";

/** A response with the documents it was given. */
export interface ResponseWithDocuments {
  qid: string;
  runId: string;
  text: string;
  documents: readonly string[];
}

/** One statement of a response and whether the documents support it (`yes` only). */
export interface StatementVerdict {
  qid: string;
  runId: string;
  /** Position in the response, from 0. */
  index: number;
  text: string;
  label: EntailmentLabel | null;
  supported: boolean;
}

/** Separator between documents wherever they are shown together. */
export const DOCUMENT_SEPARATOR = "\n\n=====\n\n";

/**
 * Splits each response into statements (its sentences) and asks `judge`
 * whether the documents given to the response (joined with
 * {@linkcode DOCUMENT_SEPARATOR}) support each one; only `yes` counts as
 * supported. A response without documents (direct prompting) is not checked:
 * it has no KPP. Statements without a usable answer count as unsupported and
 * are recorded.
 *
 * @param responses Responses with their documents.
 * @param judge Entailment judge (for a model: `llmEntailer(client, { task: "support" })`).
 * @param opts Signal and progress.
 * @returns Verdicts per statement and problems.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkStatements, lexicalEntailer } from "@lib/keypoints/mod.ts";
 * const r = await checkStatements(
 *   [{ qid: "q", runId: "r", text: "The bridge opened in 1932. It is blue.", documents: ["The bridge opened in 1932."] }],
 *   lexicalEntailer(),
 * );
 * assert.deepEqual(r.verdicts.map((v) => v.supported), [true, false]);
 * ```
 */
export async function checkStatements(
  responses: readonly ResponseWithDocuments[],
  judge: EntailmentJudge,
  opts: BackendCallOptions = {},
): Promise<{ verdicts: StatementVerdict[]; problems: KeyPointProblem[] }> {
  const jobs = responses.filter((r) => r.documents.length).flatMap((r) =>
    splitSentences(r.text).map((text, index) => ({ r, text, index }))
  );
  const results = await judge.judge(
    jobs.map((j, i) => ({
      id: String(i),
      keypoint: j.text,
      response: j.r.documents.join(DOCUMENT_SEPARATOR),
    })),
    opts,
  );
  const problems: KeyPointProblem[] = [];
  const verdicts = jobs.map(({ r, text, index }, i): StatementVerdict => {
    const v = results[i];
    if (v.status !== "ok") {
      problems.push({
        step: "support",
        qid: r.qid,
        item: r.runId,
        status: v.status,
        reason: `statement ${index + 1}: ${v.reason}`,
        ...(v.raw !== undefined ? { raw: v.raw } : {}),
      });
    }
    return {
      qid: r.qid,
      runId: r.runId,
      index,
      text,
      label: v.label,
      supported: v.label === "yes",
    };
  });
  return { verdicts, problems };
}
