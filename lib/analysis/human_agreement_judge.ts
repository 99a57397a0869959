/**
 * A judge's ratings of one run's reports in the workspace, as judgments to set
 * against annotators' labels.
 *
 * @module
 */
import type { Judgment } from "@lib/formats/mod.ts";
import { readReportJudges, readReportQuestionRatings, type Workspace } from "@lib/store/mod.ts";

/** Options of {@linkcode humanAgreementJudge}. */
export interface HumanAgreementJudgeOptions {
  /** Judge of the report ratings. Default: the only judge that rated reports. */
  judge?: string;
  /** Generation run whose reports the annotators labelled. Default `oracle-result` (the human summaries). */
  run?: string;
}

/**
 * Reads one judge's ratings of one run's reports, one judgment per topic with
 * a rating per sub-question in ordinal order, ready for
 * `humanAgreement(files, { judge })`. Sub-questions the judge did not rate for
 * a report it rated (those not answerable in the corpus, which the CRUX report
 * judging skips) count as 0; topics whose report it never rated are left out.
 *
 * @param ws The workspace.
 * @param opts `judge` (default: the only report judge), `run` (default `oracle-result`).
 * @returns The judge name and its judgments in topic order.
 * @throws {RangeError} When no judge or several judges rated reports and none is named.
 * @example
 * ```ts
 * import { humanAgreementJudge } from "@lib/analysis/mod.ts";
 * import { readReportJudges, readReportQuestionRatings } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const { judge, judgments } = await humanAgreementJudge(ws, { run: "rag-bm25" });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function humanAgreementJudge(
  ws: Workspace,
  opts: HumanAgreementJudgeOptions = {},
): Promise<{ judge: string; judgments: Judgment[] }> {
  const run = opts.run ?? "oracle-result";
  const item = (t: string) => (run === "oracle-result" ? `${t}:report` : `${t}:report:${run}`);
  let judge = opts.judge;
  if (judge === undefined) {
    const judges = await readReportJudges(ws);
    if (judges.length !== 1) {
      throw new RangeError(
        judges.length
          ? `Several judges rated reports (${judges.join(", ")}); name one`
          : "No judge rated a report in this workspace; judge reports first",
      );
    }
    judge = judges[0];
  }
  const rows = await readReportQuestionRatings(ws, judge, run);
  const byTopic = new Map<string, (number | null)[]>();
  for (const r of rows) byTopic.set(r.topicId, [...(byTopic.get(r.topicId) ?? []), r.rating]);
  const judgments = [...byTopic].filter(([, rs]) => rs.some((r) => r !== null))
    .map(([topicId, rs]) => ({ topicId, itemId: item(topicId), ratings: rs.map((r) => r ?? 0) }));
  return { judge, judgments };
}
