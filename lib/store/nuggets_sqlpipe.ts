/**
 * Clears and reads of the nugget tables that the pipeline's nugget stages and
 * the command line need.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * Deletes everything of one nugget origin: its nuggets, their passages and their
 * assignments.
 *
 * @param ws The workspace.
 * @param origin The nugget origin.
 * @example
 * ```ts
 * import { clearNuggetOrigin } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearNuggetOrigin(ws, "file:nuggets.jsonl");
 * ```
 */
export async function clearNuggetOrigin(ws: WorkspaceLike, origin: string): Promise<void> {
  for (const t of ["nuggets", "nugget_passages", "nugget_assignments"]) {
    await ws.exec(`DELETE FROM ${t} WHERE origin = $1`, [origin]);
  }
}

/**
 * Forgets the importance labels of one origin's nuggets (every nugget kept
 * again); labels read from a file (`importance_by = 'file'`) stay.
 *
 * @param ws The workspace.
 * @param origin The nugget origin.
 * @example
 * ```ts
 * import { clearNuggetImportance } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearNuggetImportance(ws, "llm:model");
 * ```
 */
export async function clearNuggetImportance(ws: WorkspaceLike, origin: string): Promise<void> {
  await ws.exec(
    `UPDATE nuggets SET importance = NULL, importance_by = NULL, importance_call = NULL,
       importance_raw = NULL, kept = true
     WHERE origin = $1 AND importance_by IS DISTINCT FROM 'file'`,
    [origin],
  );
}

/**
 * The origins of the stored nuggets, in name order.
 *
 * @param ws The workspace.
 * @returns The origins.
 * @example
 * ```ts
 * import { readNuggetOrigins } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readNuggetOrigins(ws); // [] in a new workspace
 * ```
 */
export async function readNuggetOrigins(ws: WorkspaceLike): Promise<string[]> {
  return (await ws.query<{ origin: string }>(`SELECT DISTINCT origin FROM nuggets ORDER BY 1`))
    .map((r) => r.origin);
}
