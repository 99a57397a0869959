/**
 * The backend label every table and figure carries.
 *
 * @module
 */

/** Backends by role, e.g. `{ judge: "lexical", generator: "extractive" }`. */
export type Backends = Partial<
  Record<"retriever" | "reranker" | "embedder" | "generator" | "judge", string>
>;

/** Options of {@linkcode backendNote}. */
export interface BackendNoteOptions {
  /** Backend names that run offline. Default `["lexical", "extractive", "tfidf", "chunker"]`. */
  offline?: string[];
}

const ROLE_ORDER = ["judge", "retriever", "reranker", "embedder", "generator"] as const;

/**
 * Describe which backends produced a table's or figure's values, labelling the
 * offline ones. When every backend is offline the note reads `offline backends:
 * lexical judge, extractive generator`; otherwise `backends: ...` with
 * `(offline)` after each offline backend. Roles are listed judge first (it
 * decides what the numbers mean), then retriever, reranker, embedder, generator.
 *
 * @param backends Backend name by role; roles without a name are skipped.
 * @param opts `offline`: names treated as offline backends.
 * @returns One line of text (no trailing period).
 * @throws {RangeError} When no backend is named.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(
 *   backendNote({ judge: "lexical", generator: "extractive" }),
 *   "offline backends: lexical judge, extractive generator",
 * );
 * assert.equal(
 *   backendNote({ judge: "gpt-4o", generator: "extractive" }),
 *   "backends: gpt-4o judge, extractive generator (offline)",
 * );
 * ```
 */
export function backendNote(backends: Backends, opts: BackendNoteOptions = {}): string {
  const offline = new Set(opts.offline ?? ["lexical", "extractive", "tfidf", "chunker"]);
  const named = ROLE_ORDER.filter((r) => backends[r]).map((r) => ({ role: r, name: backends[r]! }));
  if (named.length === 0) {
    throw new RangeError(
      `Cannot describe backends: none named in ${JSON.stringify(backends)}; give at least one role`,
    );
  }
  if (named.every((b) => offline.has(b.name))) {
    return `offline backends: ${named.map((b) => `${b.name} ${b.role}`).join(", ")}`;
  }
  return `backends: ${
    named.map((b) => `${b.name} ${b.role}${offline.has(b.name) ? " (offline)" : ""}`).join(", ")
  }`;
}
