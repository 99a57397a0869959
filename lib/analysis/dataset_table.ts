/**
 * The dataset statistics table (like the CRUX paper's).
 *
 * @module
 */
import { type Table, table } from "@lib/report/mod.ts";
import type { DatasetStatsRow } from "@lib/construct/mod.ts";

/**
 * Renders dataset statistics rows as a report table: one row per dataset, with
 * topics, documents/passages/sub-questions/answerable sub-questions per topic,
 * tokens per passage, |P*| and tokens of P*. A dataset whose passages came
 * without their documents has no document count: its Docs cell is blank and a
 * note says why (a 0 would claim documents were counted).
 *
 * @param rows Output of `workspaceStats` / `datasetStats` from `@lib/construct`.
 * @param opts `caption`, `notes`.
 * @returns A table for any renderer (no best/worst marking).
 * @example
 * ```ts
 * import { datasetTable } from "@lib/analysis/mod.ts";
 * import { workspaceStats } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const t = datasetTable(await workspaceStats(ws));
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function datasetTable(
  rows: readonly DatasetStatsRow[],
  opts: { caption?: string; notes?: string[] } = {},
): Table {
  const col = (key: string, label: string, decimals = 1) => ({ key, label, decimals });
  const noDocs = (r: DatasetStatsRow) => r.documentsPerTopic === 0 && r.passagesPerTopic > 0;
  const blank = rows.filter(noDocs).map((r) => r.dataset);
  const notes = [
    ...(opts.notes ?? ["Tokens: Llama-3.1 tokenizer. |P*|: required passages (grade 3)."]),
    ...(blank.length
      ? [
        `Docs: no documents in the workspace for ${
          blank.join(", ")
        } (passages imported without them).`,
      ]
      : []),
  ];
  return table({
    rowHeader: "Dataset",
    caption: opts.caption ?? "Dataset statistics (means per topic)",
    label: "tab:dataset",
    notes,
    columns: [
      col("topics", "Topics", 0),
      col("documentsPerTopic", "Docs"),
      col("passagesPerTopic", "Passages"),
      col("tokensPerPassage", "Tokens/passage"),
      col("subquestionsPerTopic", "Sub-questions"),
      col("answerablePerTopic", "Answerable"),
      col("requiredPerTopic", "|P*|"),
      col("requiredTokensPerTopic", "Tokens of P*", 0),
    ],
    rows: rows.map((r) => ({
      label: r.dataset,
      values: {
        topics: r.topics,
        documentsPerTopic: noDocs(r) ? null : r.documentsPerTopic,
        passagesPerTopic: r.passagesPerTopic,
        tokensPerPassage: r.tokensPerPassage,
        subquestionsPerTopic: r.subquestionsPerTopic,
        answerablePerTopic: r.answerablePerTopic,
        requiredPerTopic: r.requiredPerTopic,
        requiredTokensPerTopic: r.requiredTokensPerTopic,
      },
    })),
  });
}
