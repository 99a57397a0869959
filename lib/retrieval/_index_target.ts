/** Where an index may be written, and swapping a new one in; private to `@lib/retrieval`. */
import { basename, dirname, join } from "node:path";
import { FORMAT } from "./_index_files.ts";

/** Files an index folder of this workbench may hold. */
const INDEX_FILES = new Set([
  "manifest.json",
  "docids.txt",
  "terms.txt",
  "offsets.u32",
  "postings.u32",
  "tfs.u16",
  "tfs.u32",
  "lengths.u32",
  "norms.u8",
  "blocks.u32",
  "blockmax.f32",
  "postings.bin",
]);

/**
 * Checks that `dir` may receive an index: missing, empty, or an index of ours.
 *
 * @returns true when an existing index will be replaced.
 * @throws {Deno.errors.AlreadyExists} Naming what is in the way.
 */
export async function checkIndexTarget(dir: string): Promise<boolean> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
  const refuse = (why: string) =>
    new Deno.errors.AlreadyExists(
      `Refusing to write the index into "${dir}": ${why}. Nothing was changed; give --out a new ` +
        "or empty folder, or an index folder made by `crux index`",
    );
  if (!info.isDirectory) throw refuse("it is a file, not a folder");
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  if (names.length === 0) return false;
  let manifest: { format?: unknown } | undefined;
  try {
    manifest = JSON.parse(await Deno.readTextFile(join(dir, "manifest.json")));
  } catch {
    manifest = undefined;
  }
  if (manifest?.format !== FORMAT) {
    throw refuse(
      `it holds ${names.length} entries and is not an index (e.g. "${names.sort()[0]}")`,
    );
  }
  const foreign = names.filter((n) => !INDEX_FILES.has(n)).sort();
  if (foreign.length) {
    throw refuse(`besides the index it holds other files (e.g. "${foreign[0]}")`);
  }
  return true;
}

/** Moves the finished index `tmp` to `dir`, keeping the old one until the new one is in place. */
export async function swapIn(tmp: string, dir: string, replacing: boolean): Promise<void> {
  if (!replacing) {
    await Deno.remove(dir).catch(() => {}); // an empty folder
    await Deno.rename(tmp, dir);
    return;
  }
  const old = join(dirname(dir), `.${basename(dir)}-old-${crypto.randomUUID().slice(0, 8)}`);
  await Deno.rename(dir, old);
  try {
    await Deno.rename(tmp, dir);
  } catch (error) {
    await Deno.rename(old, dir);
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    throw error;
  }
  await Deno.remove(old, { recursive: true });
}

/**
 * Writes an index into `dir` atomically: `fill` writes the files into a sibling
 * temporary folder, which then replaces `dir` (checked first with
 * {@link checkIndexTarget}); on failure the temporary folder is removed and
 * `dir` is left as it was.
 */
export async function writeAtomically(
  dir: string,
  fill: (tmp: string) => Promise<void>,
): Promise<void> {
  const replacing = await checkIndexTarget(dir);
  const parent = dirname(dir);
  await Deno.mkdir(parent, { recursive: true });
  const tmp = await Deno.makeTempDir({ dir: parent, prefix: ".bm25-new-" });
  try {
    await fill(tmp);
  } catch (error) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    throw error;
  }
  await swapIn(tmp, dir, replacing);
}
