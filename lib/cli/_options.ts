/**
 * Reading numeric command-line options, shared by the `crux` subcommands.
 * Every failure is a {@linkcode UsageError} naming the option and the value.
 *
 * @module
 */
import { UsageError } from "./command.ts";

/**
 * Reads a numeric option.
 *
 * @param name Option name without dashes (for the message).
 * @param value The raw value, or undefined when the option is absent.
 * @param fallback Value when absent.
 * @returns The number.
 * @throws {UsageError} When the value is empty or not a finite number.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numberOption } from "@lib/cli/_options.ts";
 * assert.equal(numberOption("k1", "1.2", 0.9), 1.2);
 * assert.equal(numberOption("k1", undefined, 0.9), 0.9);
 * ```
 */
export function numberOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) {
    throw new UsageError(`Option --${name} expects a number, got "${value}"`);
  }
  return n;
}

/**
 * Reads an integer option with a lower bound.
 *
 * @param name Option name without dashes (for the message).
 * @param value The raw value, or undefined when the option is absent.
 * @param opts `min` (default 1) and `fallback` (returned when absent; default undefined).
 * @returns The integer, or the fallback when absent.
 * @throws {UsageError} When the value is not an integer or is below `min`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { intOption } from "@lib/cli/_options.ts";
 * assert.equal(intOption("limit", "20"), 20);
 * assert.equal(intOption("limit", undefined, { fallback: 10 }), 10);
 * ```
 */
export function intOption(
  name: string,
  value: string | undefined,
  opts: { min?: number; fallback?: number } = {},
): number | undefined {
  if (value === undefined) return opts.fallback;
  const min = opts.min ?? 1;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < min) {
    throw new UsageError(`Option --${name} expects an integer >= ${min}, got "${value}"`);
  }
  return n;
}
