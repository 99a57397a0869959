/**
 * Storing token counts of passages that have none.
 *
 * @module
 */
import { recordTokenizer, type Workspace } from "@lib/store/mod.ts";
import { countTokens } from "@lib/text/mod.ts";

/**
 * Counts the tokens of every passage whose `tokens` column is empty (Llama-3.1
 * tokenizer by default) and stores them, so statistics and budgets use one
 * count. Idempotent.
 *
 * @param ws The workspace.
 * @param opts `tokenizer`: `llama3.1` (default) or `whitespace`.
 * @returns Number of passages updated.
 * @example
 * ```ts
 * import { fillTokenCounts } from "@lib/experiment/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace; // e.g. openWorkspace("outputs/demo")
 * await fillTokenCounts(ws); // 85 on a fresh sample workspace, then 0
 * ```
 */
export async function fillTokenCounts(
  ws: Workspace,
  opts: { tokenizer?: "llama3.1" | "whitespace" } = {},
): Promise<number> {
  const missing = await ws.query<{ passageId: string; text: string }>(
    "SELECT passage_id, text FROM passages WHERE tokens IS NULL",
  );
  if (missing.length === 0) return 0;
  const tokenizer = opts.tokenizer ?? "llama3.1";
  const rows = missing.map((p) => ({ id: p.passageId, n: countTokens(p.text, { tokenizer }) }));
  // One UPDATE per 500 passages, joining a VALUES list. Ids are quoted SQL
  // literals and counts integers (DuckDB cannot type parameters inside VALUES).
  await ws.transaction(async () => {
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const values = chunk.map((r) => `('${r.id.replaceAll("'", "''")}', ${Math.trunc(r.n)})`).join(
        ", ",
      );
      await ws.exec(
        `UPDATE passages SET tokens = v.n FROM (VALUES ${values}) AS v(id, n) WHERE passage_id = v.id`,
      );
    }
    await recordTokenizer(ws, tokenizer);
  });
  return rows.length;
}
