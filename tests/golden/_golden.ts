/**
 * Helpers shared by the golden tests: run `crux eval` in process, index its
 * JSON output, compare values with a stated tolerance, hash fixture inputs.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { evalCommand } from "@lib/cli/commands/eval.ts";
import { formatMeasure, parseMeasure } from "@lib/metrics/mod.ts";

/** Absolute path of this folder. */
export const HERE = dirname(fileURLToPath(import.meta.url));

/** Resolves a path relative to this folder. */
export const here = (rel: string): string => join(HERE, rel);

/** Tolerance for goldens printed by trec_eval with 4 decimals (half a unit of the last digit). */
export const FOUR_DECIMALS = 0.00005 + 1e-9;

/** One JSON evaluation as `crux eval --format json --per-query` prints it. */
export interface EvalJson {
  aggregate: Record<string, number | null>;
  topics: number;
  perQuery: { run: string; topicId: string; measure: string; value: number }[];
}

/**
 * Runs `crux eval` in process with `--format json --per-query` appended.
 *
 * @param args Arguments after `eval`.
 * @returns The parsed JSON and the diagnostics written to stderr.
 * @throws {AssertionError} When the command exits non-zero.
 */
export async function crux(args: string[]): Promise<{ json: EvalJson; stderr: string }> {
  const io = memoryIo();
  const code = await main(["eval", ...args, "--format", "json", "--per-query"], io, [evalCommand]);
  assert.equal(code, 0, `crux eval ${args.join(" ")} failed:\n${io.stderr()}`);
  return { json: JSON.parse(io.stdout()) as EvalJson, stderr: io.stderr() };
}

/** The workbench's canonical spelling of a measure (defaults omitted: `Den(w=0.5)@10` -> `Den@10`). */
export function canonical(measure: string): string {
  return formatMeasure(parseMeasure(measure));
}

/** Indexes per-topic rows as topic -> measure -> value. */
export function byTopic(rows: EvalJson["perQuery"]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const r of rows) (out[r.topicId] ??= {})[r.measure] = r.value;
  return out;
}

/**
 * Compares workbench values with golden values, collecting every mismatch so a
 * failure lists them all (topic, measure, both values).
 *
 * @param actual Workbench per-topic values and aggregates (canonical measure keys).
 * @param expected Golden per-topic values and aggregates (any spelling the parser accepts).
 * @param tolerance Largest accepted absolute difference.
 * @returns Mismatch descriptions; empty when everything agrees.
 */
export function compareValues(
  actual: {
    aggregate: Record<string, number | null>;
    perQuery: Record<string, Record<string, number>>;
  },
  expected: { aggregate: Record<string, number>; perQuery: Record<string, Record<string, number>> },
  tolerance: number,
): string[] {
  const problems: string[] = [];
  const check = (where: string, measure: string, got: number | null | undefined, want: number) => {
    if (got === undefined || got === null || !(Math.abs(got - want) <= tolerance)) {
      problems.push(`${where} ${measure}: workbench ${got}, golden ${want}`);
    }
  };
  for (const [m, v] of Object.entries(expected.aggregate)) {
    check("aggregate", m, actual.aggregate[canonical(m)], v);
  }
  const topics = new Set([...Object.keys(expected.perQuery), ...Object.keys(actual.perQuery)]);
  for (const t of topics) {
    const want = expected.perQuery[t];
    const got = actual.perQuery[t];
    if (!want || !got) {
      problems.push(
        `topic ${t}: ${want ? "missing from the workbench output" : "not in the golden"}`,
      );
      continue;
    }
    for (const [m, v] of Object.entries(want)) check(`topic ${t}`, m, got[canonical(m)], v);
  }
  return problems;
}

/** SHA-256 (hex) of a text or byte string. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
