/**
 * The caveats table's one writer and one reader: the notes that qualify a
 * table's rows, stored with the table they qualify so every view of it (its
 * CSV and markdown, its cells file, notebooks, the explorer) shows the same.
 *
 * @module
 */
import type { Workspace } from "./workspace.ts";
import type { WorkspaceLike } from "./workspace_reads.ts";

/** One caveat of a table. */
export interface Caveat {
  /** The note, as shown. */
  text: string;
  /** The row label it qualifies; '' (or absent) for the whole table. */
  row?: string;
  /** The column key it qualifies; '' (or absent) for the whole row or table. */
  column?: string;
}

/**
 * Replaces the caveats of table `subject` with `caveats`, in order.
 *
 * @param ws The workspace.
 * @param subject The table's name (e.g. `main_table`).
 * @param caveats Its caveats, in the order they are shown (none: it has none).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openWorkspace, readCaveats, writeCaveats } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await writeCaveats(ws, "main_table", [{ text: "Mean over 10 topics." }]);
 * assert.deepEqual(await readCaveats(ws, "main_table"), [{ text: "Mean over 10 topics.", row: "", column: "" }]);
 * ws.close();
 * ```
 */
export async function writeCaveats(
  ws: Workspace,
  subject: string,
  caveats: readonly Caveat[],
): Promise<void> {
  await ws.transaction(async () => {
    await ws.exec("DELETE FROM caveats WHERE subject = $1", [subject]);
    if (!caveats.length) return;
    await ws.insert(
      "caveats",
      caveats.map((c, i) => ({
        subject,
        ordinal: i + 1,
        rowLabel: c.row ?? "",
        columnKey: c.column ?? "",
        text: c.text,
      })),
    );
  });
}

/**
 * The caveats of table `subject`, in the order they are shown.
 *
 * @param ws The workspace.
 * @param subject The table's name.
 * @returns Its caveats (none when it has none or was never saved).
 * @example
 * ```ts
 * import { openWorkspace, readCaveats } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * console.log(await readCaveats(ws, "main_table")); // []
 * ws.close();
 * ```
 */
export async function readCaveats(ws: WorkspaceLike, subject: string): Promise<Caveat[]> {
  return await ws.query<Caveat>(
    `SELECT text, row_label AS "row", column_key AS "column" FROM caveats
     WHERE subject = $1 ORDER BY ordinal`,
    [subject],
  );
}
