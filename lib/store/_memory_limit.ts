/**
 * The cap on DuckDB's memory for an open workspace (private to the store).
 *
 * @module
 */
/** DuckDB's memory cap of a workspace when neither the caller nor `CRUX_MEMORY_LIMIT` sets one. */
export const DEFAULT_MEMORY_LIMIT = "2GB";

/**
 * The memory limit to open a workspace with, and where it came from (for the
 * error on a bad value).
 *
 * @param given The caller's limit; when undefined `CRUX_MEMORY_LIMIT`, else the default.
 * @returns The limit in DuckDB's notation and its origin.
 * @throws {RangeError} When the value is not a size.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(workspaceMemoryLimit("512MiB"), { value: "512MiB", from: "the memoryLimit option" });
 * assert.throws(() => workspaceMemoryLimit("lots"), /not a size/);
 * ```
 */
export function workspaceMemoryLimit(given: string | undefined): { value: string; from: string } {
  let limit = { value: DEFAULT_MEMORY_LIMIT, from: "the default" };
  if (given !== undefined) limit = { value: given.trim(), from: "the memoryLimit option" };
  else {
    let env: string | undefined;
    try {
      env = Deno.env.get("CRUX_MEMORY_LIMIT");
    } catch {
      env = undefined; // no permission to read the environment: the default
    }
    if (env?.trim()) limit = { value: env.trim(), from: "CRUX_MEMORY_LIMIT" };
  }
  if (!/^\d+(\.\d+)?\s*(B|[KMGT]i?B)$/i.test(limit.value)) {
    throw new RangeError(
      `The workspace memory limit ${
        JSON.stringify(limit.value)
      } (from ${limit.from}) is not a size; write it like "2GB" or "512MiB"`,
    );
  }
  return limit;
}
