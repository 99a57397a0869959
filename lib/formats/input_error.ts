/**
 * The error every reader in `@lib/formats` throws for bad input, listing all the
 * problems found (up to a cap) with their file, line and field.
 *
 * @module
 */

/** One thing wrong with an input file. `line` is 1-based; 0 means the file as a whole. */
export interface Problem {
  file: string;
  line: number;
  /** Column or JSON field the problem is about, when there is one. */
  field?: string;
  message: string;
}

/** How many problems a reader collects before it stops listing them. */
export const MAX_PROBLEMS = 50;

/**
 * Formats one problem as `file:line: field: message` (`file: message` when the
 * problem concerns the whole file, the field part left out when there is none).
 *
 * @param problem The problem to format.
 * @returns The one-line description.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(formatProblem({ file: "x.run", line: 12, field: "score", message: "expected a number" }), "x.run:12: score: expected a number");
 * ```
 */
export function formatProblem(problem: Problem): string {
  const where = problem.line > 0 ? `${problem.file}:${problem.line}` : problem.file;
  const field = problem.field ? ` ${problem.field}:` : "";
  return `${where}:${field} ${problem.message}`;
}

/**
 * Input that does not follow its format. `message` lists every problem, one per
 * line, as `file:line: field: message`; when more than the cap were found a last
 * line says how many were left out.
 *
 * @example
 * ```ts
 * import { InputError, parseRun } from "@lib/formats/mod.ts";
 * try {
 *   parseRun("q1 Q0 d1 1 high bm25\n", { file: "x.run" });
 * } catch (error) {
 *   if (error instanceof InputError) console.log(error.problems.length); // 1
 * }
 * ```
 */
export class InputError extends Error {
  override name = "InputError";
  /** The problems found, in file order (at most the cap). */
  readonly problems: Problem[];
  /** How many problems were found in total, including those left out of `problems`. */
  readonly total: number;

  /**
   * @param problems The problems to report (must not be empty).
   * @param total Total number found when more than `problems.length`; defaults to the length.
   */
  constructor(problems: Problem[], total = problems.length) {
    const lines = problems.map(formatProblem);
    if (total > problems.length) {
      lines.push(`... and ${total - problems.length} more problems; fix the ones above first.`);
    }
    super(lines.join("\n"));
    this.problems = [...problems];
    this.total = total;
  }
}
