/**
 * Whether a path exists, for the store's checks of a workspace folder's files
 * (private to the store).
 *
 * @module
 */

/** Whether `path` exists (any stat failure, a missing file included, counts as absent). */
export async function fileExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
