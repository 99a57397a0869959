/** Whitespace-separated column files (TREC runs and qrels); private to `@lib/formats`. */
import type { Problems } from "./_problems.ts";
import { show } from "./_problems.ts";

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

/** Splits a line on runs of spaces/tabs; an empty or blank line gives []. */
export function columns(line: string): string[] {
  const trimmed = line.trim();
  return trimmed === "" ? [] : trimmed.split(/\s+/);
}

/** Parses a decimal number column, recording a problem when it is not one. */
export function numberColumn(
  value: string,
  line: number,
  field: string,
  problems: Problems,
): number | undefined {
  if (NUMBER.test(value)) {
    const n = Number(value);
    if (Number.isFinite(n)) return n;
    problems.add(line, field, `${value} is out of range (overflows a 64-bit float)`);
    return undefined;
  }
  problems.add(line, field, `expected a number, found ${show(value)}`);
  return undefined;
}

/** Parses an integer column, recording a problem when it is not one. */
export function integerColumn(
  value: string,
  line: number,
  field: string,
  problems: Problems,
): number | undefined {
  if (INTEGER.test(value)) {
    const n = Number(value);
    if (n >= -2147483648 && n <= 2147483647) return n;
    problems.add(line, field, `${value} is out of range (-2147483648 to 2147483647)`);
    return undefined;
  }
  problems.add(line, field, `expected an integer, found ${show(value)}`);
  return undefined;
}

/** Rejects empty values and values with whitespace, which would break the columns. */
export function checkToken(value: string, field: string): void {
  if (value === "" || /\s/.test(value)) {
    throw new RangeError(
      `Cannot write ${field} ${
        JSON.stringify(value)
      }: TREC columns must be non-empty and without spaces`,
    );
  }
}
