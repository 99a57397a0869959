/**
 * Tests' workspaces: a new one in a temporary folder, closed and removed after use.
 *
 * @module
 */
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";

/** Runs `fn` on a new workspace in a temporary folder, then closes it and removes the folder. */
export async function withTempWorkspace(fn: (ws: Workspace) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await fn(ws);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
}
