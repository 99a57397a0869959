/**
 * Reads `docs/prompt_deviations.md`: one section per built-in prompt (a heading
 * "## `id`") with a table whose rows are the paper's instructions, what the
 * prompt does with each (kept, changed, left out, added), why, and the terms
 * that show the instruction in the prompt (backticked in the last column).
 *
 * @module
 */
import type { PromptTemplate } from "@lib/llm/mod.ts";

/** What a prompt does with one instruction of its paper. */
export type Disposition = "kept" | "changed" | "left out" | "added";

/** One row of a prompt's table. */
export interface DeviationRow {
  instruction: string;
  here: Disposition;
  why: string;
  terms: string[];
  /** 1-based line in the file. */
  line: number;
}

const HERE = new Set<Disposition>(["kept", "changed", "left out", "added"]);

/** Cells of a Markdown table row, `\|` kept as a literal bar. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
}

/**
 * The tables of the deviations file, by template id.
 *
 * @throws {SyntaxError} On a row with the wrong number of cells or an unknown disposition.
 */
export function readDeviations(text: string): Map<string, DeviationRow[]> {
  const out = new Map<string, DeviationRow[]>();
  let current: DeviationRow[] | undefined;
  text.split("\n").forEach((line, i) => {
    const heading = /^##\s+`([a-z_]+)`\s*$/.exec(line);
    if (heading) {
      current = [];
      out.set(heading[1], current);
      return;
    }
    if (/^#/.test(line)) {
      current = undefined;
      return;
    }
    if (!current || !line.trim().startsWith("|")) return;
    const c = cells(line);
    if (c[0] === "Instruction of the paper" || /^-+$/.test(c[0])) return;
    if (c.length !== 4) {
      throw new SyntaxError(`prompt_deviations.md:${i + 1}: expected 4 cells, found ${c.length}`);
    }
    if (!HERE.has(c[1] as Disposition)) {
      throw new SyntaxError(`prompt_deviations.md:${i + 1}: unknown disposition "${c[1]}"`);
    }
    const terms = [...c[3].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    current.push({ instruction: c[0], here: c[1] as Disposition, why: c[2], terms, line: i + 1 });
  });
  return out;
}

/** Spaces and line breaks read as one space. */
export const squash = (s: string): string => s.replace(/\s+/g, " ").trim();

/**
 * The problems of one prompt against its rows: a kept or added instruction
 * without terms, a left-out or changed one without a reason, and every term
 * the prompt's messages lack. Empty when the prompt states every instruction.
 */
export function checkPrompt(template: PromptTemplate, rows: readonly DeviationRow[]): string[] {
  const body = squash(template.messages.map((m) => m.content).join("\n"));
  const problems: string[] = [];
  for (const r of rows) {
    const where = `${template.ref} (prompt_deviations.md:${r.line})`;
    if ((r.here === "kept" || r.here === "added") && r.terms.length === 0) {
      problems.push(`${where}: "${r.instruction}" is ${r.here} but names no term`);
    }
    if ((r.here === "left out" || r.here === "changed" || r.here === "added") && !r.why) {
      problems.push(`${where}: "${r.instruction}" is ${r.here} without a reason`);
    }
    for (const term of r.terms) {
      if (!body.includes(squash(term))) {
        problems.push(`${where}: "${r.instruction}" lost its term "${term}"`);
      }
    }
  }
  return problems;
}
