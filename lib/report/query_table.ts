/**
 * SQL on an experiment workspace, as arquero tables for notebooks.
 *
 * @module
 */
import * as aq from "arquero";
import type { Workspace } from "@lib/store/mod.ts";
import type { Displayable } from "./display_table.ts";

/** An arquero table (`derive`, `groupby`, `rollup`, `orderby`, `objects`, `toHTML`, ...). */
export type ArqueroTable = ReturnType<typeof aq.from>;

/**
 * Runs SQL on the workspace (any table of any stage: topics, passages, ratings,
 * runs, generations, measures, memo, llm_calls, ...) and returns the rows
 * as an arquero table, columns named as in the query (camelCase for snake_case
 * columns), BIGINT as numbers and JSON parsed.
 *
 * @param ws An open workspace.
 * @param sql The query, with `$1, $2, ...` placeholders.
 * @param params Placeholder values.
 * @returns The rows as an arquero table; displays as HTML in Jupyter.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { op } from "arquero";
 * import { queryTable } from "@lib/report/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * // after `crux run`: "SELECT run, measure, value FROM measures WHERE topic_id = 'all'"
 * const t = await queryTable(ws, "SELECT topic_id, passage_id FROM passages");
 * const perTopic = t.groupby("topicId").rollup({ passages: op.count() }); // columns in camelCase
 * assert.equal(perTopic.numRows(), 10); // the sample's ten topics
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function queryTable(
  ws: Workspace,
  sql: string,
  params: readonly unknown[] = [],
): Promise<ArqueroTable> {
  return aq.from(await ws.query<Record<string, unknown>>(sql, params));
}

/**
 * Wraps an arquero table for `Deno.jupyter.display`: HTML (at most `limit` rows,
 * with the row count) and plain text.
 *
 * @param table The table.
 * @param opts `limit` rows shown (default 50).
 * @returns An object the Deno kernel displays as an HTML table.
 * @example
 * ```ts
 * import * as aq from "arquero";
 * import { displayArquero } from "@lib/report/mod.ts";
 * displayArquero(aq.from([{ run: "bm25", value: 0.5 }])); // await Deno.jupyter.display(...)
 * ```
 */
export function displayArquero(table: ArqueroTable, opts: { limit?: number } = {}): Displayable {
  const limit = opts.limit ?? 50;
  const html = table.toHTML({ limit }) +
    `<p><small>${table.numRows()} rows${
      table.numRows() > limit ? `, first ${limit} shown` : ""
    }</small></p>`;
  const text = table.toMarkdown({ limit });
  return {
    [Symbol.for("Jupyter.display")]: () => ({ "text/html": html, "text/plain": text }),
    toString: () => text,
  };
}
