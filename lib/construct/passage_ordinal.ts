/**
 * Reads the passage counter `j` of a CRUX passage id `{topic}:{doc}#{j}`.
 *
 * @param passageId A passage id.
 * @returns `j`, or `Infinity` when the id does not end in `#<digits>` (sorts last).
 * @example
 * ```ts
 * passageOrdinal("multi_news-test-12:2#7"); // 7
 * ```
 */
export function passageOrdinal(passageId: string): number {
  const m = /#(\d+)$/.exec(passageId);
  return m ? Number(m[1]) : Infinity;
}
