/**
 * Private: atomic file writes (write a temporary file beside the target, then rename).
 *
 * @module
 */
import { dirname } from "node:path";

/**
 * Write `data` to `path` atomically: the parent folder is created, the data
 * goes to a temporary file in the same folder, which is then renamed over the
 * target, so readers never see a half-written file.
 */
export async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${crypto.randomUUID()}`;
  try {
    if (typeof data === "string") await Deno.writeTextFile(tmp, data);
    else await Deno.writeFile(tmp, data);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw new Error(
      `Cannot write "${path}": ${(e as Error).message}; check the folder exists and is writable`,
      {
        cause: e,
      },
    );
  }
}
