/** Reading and writing the files of an on-disk BM25 index. */
import { join } from "node:path";
import type { IndexData } from "./_index_data.ts";
import { BLOCK, BLOCK_FIELDS, decodePostings } from "./_postings_codec.ts";
import { PostingsWriter } from "./_postings_file.ts";
import { lengthToByte } from "./_small_float.ts";

/** Name of the index format, recorded in the manifest. */
export const FORMAT = "crux-bm25";
/**
 * Version of the on-disk layout; bumped on incompatible changes. Version 1 held
 * uncompressed arrays; version 2 holds variable-byte postings in blocks of 128
 * with skip entries and block impacts.
 */
export const FORMAT_VERSION = 2;

/** The JSON manifest stored as `manifest.json` beside the binary files. */
export interface IndexManifest {
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
  /** Bytes of `postings.bin`. */
  postingBytes: number;
  /** Postings per block. */
  blockSize: number;
  /** Skip entries in `blocks.u32`. */
  blocks: number;
  tfBytes: 2 | 4;
  byteOrder: "little-endian";
}

const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Writes the document ids, terms, lengths and manifest (the postings are written apart). */
export async function writeIndexTables(
  dir: string,
  docIds: readonly string[],
  terms: readonly string[],
  lengths: Uint32Array,
  manifest: IndexManifest,
): Promise<void> {
  const enc = new TextEncoder();
  await Deno.writeFile(join(dir, "docids.txt"), enc.encode(docIds.join("\n")));
  await Deno.writeFile(join(dir, "terms.txt"), enc.encode(terms.join("\n")));
  await Deno.writeFile(join(dir, "lengths.u32"), bytes(lengths));
  await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
}

/**
 * Writes an in-memory index into `dir` (which must exist and be empty).
 *
 * @returns The manifest completed with the postings' byte and block counts.
 */
export async function writeIndexFiles(
  dir: string,
  data: IndexData,
  manifest: IndexManifest,
): Promise<IndexManifest> {
  const writer = new PostingsWriter(dir);
  try {
    const { offsets, postingDocs, postingTfs, lengths } = data;
    for (let t = 0; t < data.terms.length; t++) {
      writer.add(postingDocs, postingTfs, offsets[t], offsets[t + 1], lengths);
    }
  } catch (error) {
    writer.abort();
    throw error;
  }
  const { blocks } = writer.close();
  const full = { ...manifest, postingBytes: writer.bytes, blocks };
  await writeIndexTables(dir, data.docIds, data.terms, data.lengths, full);
  return full;
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
export async function readIndexManifest(dir: string): Promise<IndexManifest> {
  const path = join(dir, "manifest.json");
  let manifest: IndexManifest;
  try {
    manifest = JSON.parse(await Deno.readTextFile(path));
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound ? "no such file" : String(error);
    throw new Error(
      `Cannot load BM25 index "${dir}": ${path}: ${why}; build one with \`crux index\``,
    );
  }
  const rebuild = `rebuild it with \`crux index --passages FILE.jsonl --out ${dir}\``;
  if (manifest?.format === FORMAT && typeof manifest.version === "number") {
    if (manifest.version < FORMAT_VERSION) {
      throw new Error(
        `Cannot load BM25 index "${dir}": built by an older version (${path}: format version ` +
          `${manifest.version}; this version reads ${FORMAT_VERSION}); ${rebuild}`,
      );
    }
    if (manifest.version > FORMAT_VERSION) {
      throw new Error(
        `Cannot load BM25 index "${dir}": built by a newer version (${path}: format version ` +
          `${manifest.version}; this version reads ${FORMAT_VERSION}); update crux or ${rebuild}`,
      );
    }
  }
  if (manifest?.format !== FORMAT || manifest.version !== FORMAT_VERSION) {
    throw new Error(
      `Cannot load BM25 index "${dir}": ${path}: format "${manifest?.format}" version ` +
        `${manifest?.version}, expected "${FORMAT}" version ${FORMAT_VERSION}; ${rebuild}`,
    );
  }
  const counts = [
    "documents",
    "terms",
    "postings",
    "fieldDocCount",
    "sumTotalTermFreq",
    "postingBytes",
    "blocks",
  ] as const;
  const bad = counts.find((k) => !Number.isSafeInteger(manifest[k]) || manifest[k] < 0) ??
    (manifest.tfBytes !== 2 && manifest.tfBytes !== 4 ? "tfBytes" : undefined) ??
    (manifest.blockSize !== BLOCK ? "blockSize" : undefined) ??
    (!Number.isFinite(manifest.k1) || !Number.isFinite(manifest.b) ? "k1/b" : undefined);
  if (bad) {
    throw new Error(
      `Index "${dir}" is corrupt (${path}: field ${bad} is invalid); rebuild it with \`crux index\``,
    );
  }
  return manifest;
}

/**
 * Reads all files of the index in `dir` and decodes the postings into arrays,
 * checking the skip entries (last document, byte end, impact) against them.
 */
export async function readIndexFiles(dir: string, m: IndexManifest): Promise<IndexData> {
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
  const offsets = await readArray(dir, "offsets.u32", m.terms + 1, u32, 4);
  const skips = await readArray(dir, "blocks.u32", m.blocks * BLOCK_FIELDS, u32, 4);
  const lengths = await readArray(dir, "lengths.u32", m.documents, u32, 4);
  const bin = await readArray(
    dir,
    "postings.bin",
    m.postingBytes,
    (b, o, n) => new Uint8Array(b, o, n),
    1,
  );
  const corrupt = (what: string) =>
    new Error(`Index "${dir}" is corrupt (${what}); rebuild it with \`crux index\``);
  if (offsets[0] !== 0 || offsets[m.terms] !== m.postings) {
    throw corrupt(
      `offsets.u32 runs from ${offsets[0]} to ${offsets[m.terms]}, not 0 to ${m.postings}`,
    );
  }
  const postingDocs = new Uint32Array(m.postings);
  const postingTfs = m.tfBytes === 2 ? new Uint16Array(m.postings) : new Uint32Array(m.postings);
  const blockStarts = new Uint32Array(m.terms + 1);
  const blockImpacts = new Uint32Array(m.blocks * 2);
  let pos = 0;
  let blk = 0;
  for (let t = 0; t < m.terms; t++) {
    const start = offsets[t];
    const df = offsets[t + 1] - start;
    if (offsets[t + 1] < start) throw corrupt(`postings of term ${t} run from ${start} backwards`);
    const begin = pos;
    if (df <= BLOCK) {
      pos = decodePostings(bin, pos, bin.length, df, postingDocs, postingTfs, start);
      if (pos < 0) throw corrupt(`postings.bin ends inside term ${t}`);
    } else {
      let prev = -1;
      for (let b = 0; b * BLOCK < df; b++, blk++) {
        if (blk >= m.blocks) throw corrupt(`blocks.u32 has fewer than the blocks of term ${t}`);
        const count = Math.min(BLOCK, df - b * BLOCK);
        const out = start + b * BLOCK;
        pos = decodePostings(bin, pos, bin.length, count, postingDocs, postingTfs, out);
        if (pos < 0) throw corrupt(`postings.bin ends inside term ${t}`);
        // Gaps are coded from the previous block's last document.
        if (prev >= 0) {
          for (let p = out; p < out + count; p++) postingDocs[p] += prev + 1;
        }
        prev = postingDocs[out + count - 1];
        let maxTf = 0;
        let minLen = 2 ** 32 - 1;
        for (let p = out; p < out + count; p++) {
          if (postingTfs[p] > maxTf) maxTf = postingTfs[p];
          const len = lengths[postingDocs[p]];
          if (len < minLen) minLen = len;
        }
        const e = blk * BLOCK_FIELDS;
        if (
          skips[e] !== prev || skips[e + 1] !== pos - begin || skips[e + 2] !== maxTf ||
          skips[e + 3] !== minLen
        ) {
          throw corrupt(`skip entry ${blk} of term ${t} does not match its postings`);
        }
        blockImpacts[2 * blk] = maxTf;
        blockImpacts[2 * blk + 1] = minLen;
      }
    }
    blockStarts[t + 1] = blk;
  }
  if (pos !== bin.length || blk !== m.blocks) {
    throw corrupt(`postings.bin or blocks.u32 has data beyond the last term`);
  }
  const norms = new Uint8Array(m.documents);
  for (let d = 0; d < m.documents; d++) norms[d] = lengthToByte(lengths[d]);
  return {
    docIds,
    terms,
    offsets,
    postingDocs,
    postingTfs,
    lengths,
    norms,
    blockStarts,
    blockImpacts,
  };
}
