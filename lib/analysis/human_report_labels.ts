/**
 * Human judgments of reports stored in a workspace, as human labels.
 *
 * @module
 */
import type { Workspace } from "@lib/store/mod.ts";
import type { HumanLabel } from "./human_labels.ts";
import { naturalCompare } from "@lib/report/mod.ts";

/**
 * Collects the ratings one judge (default `human`) gave to reports in the
 * workspace (item ids `{topic}:report` = the human summary, condition
 * `oracle-result`, and `{topic}:report:{run}`) as {@linkcode HumanLabel}s with
 * ratings in question order (null where a question is not rated), e.g. the bundled
 * sample's hand ratings of each topic's summary. Overlaying them on the
 * per-topic coverage shows where the automatic judge and the human disagree.
 *
 * @param ws An open workspace.
 * @param opts `judge` (default `human`).
 * @returns One label per judged report, in topic order; empty when the judge rated no report.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { humanCoverageRows, humanReportLabels, loadCruxData } from "@lib/analysis/mod.ts";
 * import { selectRequired } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // P*, which makes sub-questions answerable
 * const labels = await humanReportLabels(ws); // the sample's hand ratings of each summary
 * assert.ok(labels.every((l) => l.condition === "oracle-result"));
 * // What the measure:human stage stores from them: coverage per topic, and a mean.
 * const rows = humanCoverageRows(await loadCruxData(ws), labels, { judge: "human" });
 * assert.equal(rows.filter((r) => r.topicId !== "all").length, labels.length);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function humanReportLabels(
  ws: Workspace,
  opts: { judge?: string } = {},
): Promise<HumanLabel[]> {
  const judge = opts.judge ?? "human";
  const questions = new Map<string, string[]>();
  for (const q of await ws.questions({ kind: "subquestion" })) {
    questions.set(q.topicId, [...(questions.get(q.topicId) ?? []), q.questionId]);
  }
  const byItem = new Map<string, { topicId: string; ratings: Map<string, number> }>();
  for (const r of await ws.ratings({ judge })) {
    const prefix = `${r.topicId}:report`;
    if (r.itemId !== prefix && !r.itemId.startsWith(prefix + ":")) continue;
    let item = byItem.get(r.itemId);
    if (!item) byItem.set(r.itemId, item = { topicId: r.topicId, ratings: new Map() });
    item.ratings.set(r.questionId, r.rating);
  }
  const out: HumanLabel[] = [];
  for (const [itemId, { topicId, ratings }] of byItem) {
    const qs = questions.get(topicId);
    if (!qs) continue;
    const prefix = `${topicId}:report`;
    out.push({
      topicId,
      condition: itemId === prefix ? "oracle-result" : itemId.slice(prefix.length + 1),
      ratings: qs.map((q) => ratings.get(q) ?? null),
    });
  }
  return out.sort((a, b) => naturalCompare(a.topicId, b.topicId));
}
