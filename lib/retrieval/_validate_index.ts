/** Structural checks of a loaded index, so a corrupt one fails fast; private to `@lib/retrieval`. */
import type { IndexData } from "./_index_data.ts";
import type { IndexManifest } from "./_index_files.ts";
import { lengthToByte } from "./_small_float.ts";

/**
 * Verifies what searching relies on: offsets start at 0, never decrease and end
 * at the posting count; each term's documents are ascending and in range; term
 * frequencies are positive and add up to each document's length; norms encode the
 * lengths; the manifest's field statistics match. One pass over the postings.
 *
 * @throws {Error} "index corrupt" naming the first failed check and the fix.
 */
export function validateIndex(dir: string, data: IndexData, m: IndexManifest): void {
  const corrupt = (what: string) =>
    new Error(`Index "${dir}" is corrupt (${what}); rebuild it with \`crux index\``);
  const { offsets, postingDocs, postingTfs, lengths, norms } = data;
  const nDocs = m.documents;
  if (offsets[0] !== 0) throw corrupt(`offsets start at ${offsets[0]}, not 0`);
  if (offsets[m.terms] !== m.postings) {
    throw corrupt(`offsets end at ${offsets[m.terms]}, not at the ${m.postings} postings`);
  }
  const sums = new Float64Array(nDocs);
  for (let t = 0; t < m.terms; t++) {
    const lo = offsets[t], hi = offsets[t + 1];
    if (hi < lo || hi > m.postings) throw corrupt(`postings of term ${t} run from ${lo} to ${hi}`);
    let prev = -1;
    for (let p = lo; p < hi; p++) {
      const d = postingDocs[p];
      if (d <= prev || d >= nDocs) {
        throw corrupt(`term ${t} lists document ${d} out of order or range`);
      }
      const tf = postingTfs[p];
      if (tf === 0) throw corrupt(`term ${t} has a zero frequency in document ${d}`);
      sums[d] += tf;
      prev = d;
    }
  }
  let docCount = 0, total = 0;
  for (let d = 0; d < nDocs; d++) {
    if (sums[d] !== lengths[d]) {
      throw corrupt(`document ${d} has length ${lengths[d]} but ${sums[d]} term occurrences`);
    }
    if (norms[d] !== lengthToByte(lengths[d])) {
      throw corrupt(`norm of document ${d} does not match its length`);
    }
    if (lengths[d] > 0) docCount++;
    total += lengths[d];
  }
  if (docCount !== m.fieldDocCount || total !== m.sumTotalTermFreq) {
    throw corrupt("field statistics differ from the manifest");
  }
}
