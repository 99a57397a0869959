/**
 * The parameters a stage instance recorded when it last ran, so its `clear`
 * can drop the rows it wrote under an earlier source or judge.
 *
 * @module
 */
import { readStageParams, type Workspace } from "@lib/store/mod.ts";

/**
 * Reads the parameters the memo holds for a stage instance.
 *
 * @param ws The workspace.
 * @param id Stage instance id, e.g. `measure:subq`.
 * @returns The recorded parameters, or `{}` when the stage never ran.
 * @example
 * ```ts
 * import { previousParams } from "@lib/pipeline/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await previousParams(ws, "measure:subq"); // {}: the stage never ran
 * ws.close();
 * ```
 */
export async function previousParams<T>(ws: Workspace, id: string): Promise<Partial<T>> {
  const parsed = await readStageParams(ws, id);
  return parsed !== null && typeof parsed === "object" ? parsed as Partial<T> : {};
}
