/** In-memory inversion of analyzed documents into postings. */
import type { IndexData } from "./_index_data.ts";
import { lengthToByte } from "./_small_float.ts";
import { blockImpacts } from "./_block_impacts.ts";
import { Inverter } from "./_inverter.ts";
import { analyzeDocuments, checkText } from "./_analysis.ts";

/** Progress of a build: documents analyzed so far out of the total (-1 when unknown). */
export type BuildProgress = (done: number, total: number) => void;

/** Throws when `id` is a repeat (`seen` maps ids to document numbers from 1) or has a line break. */
export function checkId(id: string, d: number, seen: Map<string, number>): void {
  if (/[\r\n]/.test(id)) {
    throw new Error(
      `Cannot index document number ${d + 1}: id ${JSON.stringify(id)} contains a line break`,
    );
  }
  const first = seen.get(id);
  if (first !== undefined) {
    throw new Error(
      `Cannot index document number ${d + 1}: id ${
        JSON.stringify(id)
      } is already document number ${first}; give every document a unique id`,
    );
  }
  seen.set(id, d + 1);
}

/** Analyzes and inverts documents; doc numbers follow the input order. */
export function invert(
  docs: readonly { id: string; text: string }[],
  onProgress?: BuildProgress,
): IndexData {
  const n = docs.length;
  const inverter = new Inverter();
  const seen = new Map<string, number>();
  for (let d = 0; d < n; d++) {
    checkId(docs[d].id, d, seen);
    checkText(docs[d].text, d, docs[d].id);
    inverter.add(docs[d].text);
    if (onProgress && (d + 1) % 10000 === 0) onProgress(d + 1, n);
  }
  onProgress?.(n, n);
  return indexData(docs, inverter, inverter.encoder.terms);
}

/**
 * {@link invert} with the analysis in worker threads once the input is larger
 * than one batch ({@link analyzeDocuments}); the same index.
 */
export async function invertInWorkers(
  docs: readonly { id: string; text: string }[],
  opts: { onProgress?: BuildProgress; analysisWorkers?: number; batchChars?: number },
): Promise<IndexData> {
  const n = docs.length;
  const inverter = new Inverter();
  const seen = new Map<string, number>();
  let d = 0;
  const terms = await analyzeDocuments(docs, {
    workers: opts.analysisWorkers,
    batchChars: opts.batchChars,
    onDocument: (id) => checkId(id, d++, seen),
    onBatch: (batch, vocabSize) =>
      inverter.addBatch(batch, vocabSize, () => {
        if (opts.onProgress && inverter.documents % 10000 === 0) {
          opts.onProgress(inverter.documents, n);
        }
      }),
  });
  opts.onProgress?.(n, n);
  return indexData(docs, inverter, terms);
}

/** The index of the documents added to `inverter`. */
function indexData(
  docs: readonly { id: string }[],
  inverter: Inverter,
  terms: string[],
): IndexData {
  const n = docs.length;
  const { offsets, docs: postingDocs, tfs: postingTfs } = inverter.take();
  if (offsets[offsets.length - 1] >= 2 ** 32 - 1) {
    throw new RangeError(`Cannot index ${offsets[offsets.length - 1]} postings: over 2^32`);
  }
  const lengths = inverter.lengths.toArray();
  const norms = new Uint8Array(n);
  for (let d = 0; d < n; d++) norms[d] = lengthToByte(lengths[d]);
  return {
    docIds: docs.map((x) => x.id),
    terms,
    offsets,
    postingDocs,
    postingTfs,
    lengths,
    norms,
    ...blockImpacts(offsets, postingDocs, postingTfs, lengths),
  };
}
