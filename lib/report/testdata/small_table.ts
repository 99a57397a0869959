/**
 * A small hand-made table used by the renderer tests: a tie for best in
 * `cov`, a reference row that would otherwise be best, a null cell, a string
 * cell, a lower-is-better column and LaTeX/HTML special characters.
 *
 * @module
 */
import type { Table } from "../types.ts";

/** The fixture table (do not modify in tests; renderers never mutate it). */
export const SMALL: Table = {
  caption: "Coverage & cost (top-10)",
  label: "tab:small",
  columns: [
    { key: "cov", label: "Cov@10", group: "Retrieval", direction: "higher" },
    { key: "andcg", label: "alpha_nDCG@10", group: "Retrieval", direction: "higher", decimals: 2 },
    { key: "tokens", label: "Tokens", direction: "lower", decimals: 0 },
    { key: "note", label: "Note" },
  ],
  rows: [
    { label: "bm25", values: { cov: 0.5, andcg: 0.4049, tokens: 1200, note: "k1=0.9" } },
    { label: "dense_e5", values: { cov: 0.6, andcg: 0.404, tokens: 1500, note: "50% <dup>" } },
    { label: "hybrid", values: { cov: 0.6004, andcg: null, tokens: 900, note: null } },
    {
      label: "oracle",
      group: "reference",
      values: { cov: 0.9, andcg: 0.9, tokens: 100, note: "P*" },
    },
  ],
  notes: ["offline backends: lexical judge, extractive generator"],
};
