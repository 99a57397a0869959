/**
 * Storing each report of a generation run against its oracle budget (see
 * `reportBudgetRows`): read from the stored reports, P* and passages, no model
 * call.
 *
 * @module
 */
import {
  readGenerationsByRun,
  readPassagesById,
  readWorkspaceQrels,
  type WorkspaceLike,
  writeMeasures,
} from "@lib/store/mod.ts";
import { oracleSets } from "@lib/metrics/mod.ts";
import { countTokens } from "@lib/text/mod.ts";
import { reportBudgetRows } from "./report_budget_rows.ts";

/** Options of {@linkcode measureReportBudgets}. */
export interface MeasureReportBudgetsOptions {
  /** The generation run. */
  run: string;
  /** The judge the rows are stored under (the report judge). */
  judge: string;
  /** Passage qrels defining P*. Default `crux_pr`. */
  qrelsName?: string;
  /** Tokenizer for passages stored without a token count. Default `llama3.1`. */
  tokenizer?: "llama3.1" | "whitespace";
}

/**
 * Stores the budget (tokens of P*), tokens / budget and the context size of
 * every stored report of a run in `measures` (method crux, source `report`,
 * per topic); a value that cannot be computed (no P*, a passage of P* or the
 * report without a token count) has no row, as a report that failed to
 * generate has none.
 *
 * @param ws The workspace (after select and generate).
 * @param opts The run, the rows' judge, qrels and tokenizer.
 * @returns The number of rows stored.
 * @example
 * ```ts
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { measureReportBudgets } from "@lib/judge/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await measureReportBudgets(ws, { run: "rag-bm25", judge: "lexical" });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function measureReportBudgets(
  ws: WorkspaceLike,
  opts: MeasureReportBudgetsOptions,
): Promise<number> {
  const reports = await readGenerationsByRun(ws, opts.run);
  if (!reports.length) return 0;
  const oracle = oracleSets(await readWorkspaceQrels(ws, opts.qrelsName ?? "crux_pr"));
  const passages = new Map((await readPassagesById(ws)).map((p) => [p.id, p]));
  const rows = reportBudgetRows({
    reports,
    oracle,
    tokens: (id) => {
      const p = passages.get(id);
      return p && (p.tokens ?? countTokens(p.text, { tokenizer: opts.tokenizer }));
    },
    judge: opts.judge,
  });
  await writeMeasures(ws, rows);
  return rows.length;
}
