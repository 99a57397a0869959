/** Reading and writing the files of an on-disk BM25 index. */
import { join } from "node:path";
import type { IndexData } from "./_index_data.ts";

/** Name of the index format, recorded in the manifest. */
export const FORMAT = "crux-bm25";
/** Version of the on-disk layout; bumped on incompatible changes. */
export const FORMAT_VERSION = 1;

/** The JSON manifest stored as `manifest.json` beside the binary arrays. */
export interface Manifest {
  format: string;
  version: number;
  analyzer: string;
  k1: number;
  b: number;
  exactLengths: boolean;
  documents: number;
  fieldDocCount: number;
  sumTotalTermFreq: number;
  terms: number;
  postings: number;
  tfBytes: 2 | 4;
  byteOrder: "little-endian";
}

const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Writes the arrays and manifest into `dir` (which must exist and be empty). */
export async function writeIndexFiles(dir: string, data: IndexData, manifest: Manifest) {
  const enc = new TextEncoder();
  await Deno.writeFile(join(dir, "docids.txt"), enc.encode(data.docIds.join("\n")));
  await Deno.writeFile(join(dir, "terms.txt"), enc.encode(data.terms.join("\n")));
  await Deno.writeFile(join(dir, "offsets.u32"), bytes(data.offsets));
  await Deno.writeFile(join(dir, "postings.u32"), bytes(data.postingDocs));
  await Deno.writeFile(
    join(dir, manifest.tfBytes === 2 ? "tfs.u16" : "tfs.u32"),
    bytes(data.postingTfs),
  );
  await Deno.writeFile(join(dir, "lengths.u32"), bytes(data.lengths));
  await Deno.writeFile(join(dir, "norms.u8"), data.norms);
  await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
}

async function readArray<T>(
  dir: string,
  name: string,
  count: number,
  make: (buf: ArrayBuffer, offset: number, length: number) => T,
  width: number,
): Promise<T> {
  const path = join(dir, name);
  const raw = await Deno.readFile(path);
  if (raw.byteLength !== count * width) {
    throw new Error(
      `Cannot load index file "${path}": expected ${count * width} bytes, found ` +
        `${raw.byteLength}; rebuild the index with \`crux index\``,
    );
  }
  const aligned = raw.byteOffset % width === 0 ? raw : raw.slice();
  return make(aligned.buffer as ArrayBuffer, aligned.byteOffset, count);
}

function splitLines(text: string, count: number, path: string): string[] {
  const lines = count === 0 ? [] : text.split("\n");
  if (lines.length !== count) {
    throw new Error(
      `Cannot load index file "${path}": expected ${count} lines, found ${lines.length}; ` +
        "rebuild the index with `crux index`",
    );
  }
  return lines;
}

/** Reads and validates the manifest of the index in `dir`. */
export async function readManifest(dir: string): Promise<Manifest> {
  const path = join(dir, "manifest.json");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await Deno.readTextFile(path));
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound ? "no such file" : String(error);
    throw new Error(
      `Cannot load BM25 index "${dir}": ${path}: ${why}; build one with \`crux index\``,
    );
  }
  if (manifest.format !== FORMAT || manifest.version !== FORMAT_VERSION) {
    throw new Error(
      `Cannot load BM25 index "${dir}": ${path}: format "${manifest.format}" version ` +
        `${manifest.version}, expected "${FORMAT}" version ${FORMAT_VERSION}; rebuild it with \`crux index\``,
    );
  }
  const counts = ["documents", "terms", "postings", "fieldDocCount", "sumTotalTermFreq"] as const;
  const bad = counts.find((k) => !Number.isSafeInteger(manifest[k]) || manifest[k] < 0) ??
    (manifest.tfBytes !== 2 && manifest.tfBytes !== 4 ? "tfBytes" : undefined) ??
    (!Number.isFinite(manifest.k1) || !Number.isFinite(manifest.b) ? "k1/b" : undefined);
  if (bad) {
    throw new Error(
      `Index "${dir}" is corrupt (${path}: field ${bad} is invalid); rebuild it with \`crux index\``,
    );
  }
  return manifest;
}

/** Reads all arrays of the index in `dir`. */
export async function readIndexFiles(dir: string, m: Manifest): Promise<IndexData> {
  const dec = new TextDecoder();
  const docIds = splitLines(
    dec.decode(await Deno.readFile(join(dir, "docids.txt"))),
    m.documents,
    join(dir, "docids.txt"),
  );
  const terms = splitLines(
    dec.decode(await Deno.readFile(join(dir, "terms.txt"))),
    m.terms,
    join(dir, "terms.txt"),
  );
  const u32 = (b: ArrayBuffer, o: number, n: number) => new Uint32Array(b, o, n);
  return {
    docIds,
    terms,
    offsets: await readArray(dir, "offsets.u32", m.terms + 1, u32, 4),
    postingDocs: await readArray(dir, "postings.u32", m.postings, u32, 4),
    postingTfs: m.tfBytes === 2
      ? await readArray(dir, "tfs.u16", m.postings, (b, o, n) => new Uint16Array(b, o, n), 2)
      : await readArray(dir, "tfs.u32", m.postings, u32, 4),
    lengths: await readArray(dir, "lengths.u32", m.documents, u32, 4),
    norms: await readArray(dir, "norms.u8", m.documents, (b, o, n) => new Uint8Array(b, o, n), 1),
  };
}
