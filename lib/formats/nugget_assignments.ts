/**
 * TREC RAG 2024 nugget assignments and scores (AutoNuggetizer), JSONL.
 * Assignments: `{"qid", "run_id", "nuggets": [{"text", "importance", "assignment"}]}`.
 * Scores: `{"qid", "strict_vital_score", "strict_all_score", "vital_score", "all_score"}`
 * per answer plus an aggregate row with `"qid": "all"`.
 *
 * @module
 */
import { decodeJsonl, decodeJsonlFile, type Decoder, type Fields } from "./_json.ts";
import { countRepeats, once, Repeats } from "./_repeats.ts";
import { formatJsonl } from "./jsonl.ts";
import { IMPORTANCE, type NuggetReadOptions } from "./nuggets.ts";

/** Assignment labels (`failed` = the judge's output could not be parsed). */
export const ASSIGNMENT_LABELS = ["support", "partial_support", "not_support", "failed"] as const;

/** A nugget with its label for one answer. */
export interface AssignedNugget {
  text: string;
  importance: "vital" | "okay";
  assignment: (typeof ASSIGNMENT_LABELS)[number];
}

/** The labelled nuggets of one run's answer to one query. */
export interface NuggetAssignment {
  qid: string;
  runId: string;
  nuggets: AssignedNugget[];
}

/** Nugget scores of one answer (or the aggregate with `qid` "all"). */
export interface NuggetScore {
  qid: string;
  runId?: string;
  strictVital: number;
  strictAll: number;
  vital: number;
  all: number;
}

function decodeAssignment(f: Fields): NuggetAssignment | undefined {
  const qid = f.string("qid", { coerce: true });
  const runId = f.string("run_id", { coerce: true });
  const nuggets: AssignedNugget[] = [];
  for (const n of f.objects("nuggets") ?? []) {
    const text = n.string("text");
    const importance = n.oneOf("importance", IMPORTANCE);
    const assignment = n.oneOf("assignment", ASSIGNMENT_LABELS);
    if (text !== undefined && importance && assignment) {
      nuggets.push({ text, importance, assignment });
    }
  }
  return qid === undefined || runId === undefined ? undefined : { qid, runId, nuggets };
}

function decodeScore(f: Fields): NuggetScore | undefined {
  const qid = f.string("qid", { coerce: true });
  const runId = f.string("run_id", { optional: true, coerce: true });
  const strictVital = f.number("strict_vital_score");
  const strictAll = f.number("strict_all_score");
  const vital = f.number("vital_score");
  const all = f.number("all_score");
  if (!f.ok) return undefined;
  const out = { qid, strictVital, strictAll, vital, all } as NuggetScore;
  if (runId !== undefined) out.runId = runId;
  return out;
}

function assignmentOnce(repeats: Repeats): Decoder<NuggetAssignment> {
  return once(
    decodeAssignment,
    repeats,
    (r) => JSON.stringify([r.qid, r.runId]),
    "run_id",
    (r) => `run ${JSON.stringify(r.runId)} on query ${JSON.stringify(r.qid)}`,
  );
}

/**
 * Parses nugget-assignment JSONL text. A line repeating an earlier line of the
 * same query and run exactly is dropped (counted through `onDuplicates`); the
 * same query and run with other labels is an error naming both lines.
 *
 * @param text The JSONL text.
 * @param opts `file` names the input in error messages; `onDuplicates`.
 * @returns One assignment record per (query, run), in file order.
 * @throws {InputError} Listing missing fields, unknown importance or assignment labels
 *   and conflicting repeats.
 * @example
 * ```ts
 * parseNuggetAssignments('{"qid": "q1", "run_id": "r", "nuggets": [{"text": "a", "importance": "vital", "assignment": "support"}]}', { file: "a.jsonl" });
 * ```
 */
export function parseNuggetAssignments(
  text: string,
  opts: NuggetReadOptions & { file: string },
): NuggetAssignment[] {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonl(text, opts.file, assignmentOnce(repeats)),
  );
}

/**
 * Reads a nugget-assignment JSONL file.
 *
 * @param path The file.
 * @param opts `onDuplicates` as in {@linkcode parseNuggetAssignments}.
 * @returns One record per (query, run).
 * @throws {InputError} As {@linkcode parseNuggetAssignments}.
 * @example
 * ```ts
 * const path = `${await Deno.makeTempDir()}/assignments.jsonl`;
 * await Deno.writeTextFile(path, '{"qid": "q1", "run_id": "r", "nuggets": [{"text": "a", "importance": "vital", "assignment": "support"}]}');
 * const assignments = await readNuggetAssignments(path);
 * ```
 */
export function readNuggetAssignments(
  path: string,
  opts: NuggetReadOptions = {},
): Promise<NuggetAssignment[]> {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonlFile(path, assignmentOnce(repeats)),
  );
}

/**
 * Formats assignments as AutoNuggetizer JSONL.
 *
 * @param records The assignment records.
 * @returns The JSONL text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(formatNuggetAssignments([{ qid: "q1", runId: "r", nuggets: [] }]), '{"qid":"q1","run_id":"r","nuggets":[]}\n');
 * ```
 */
export function formatNuggetAssignments(records: readonly NuggetAssignment[]): string {
  return formatJsonl(records.map((r) => ({ qid: r.qid, run_id: r.runId, nuggets: r.nuggets })));
}

/**
 * Parses nugget-score JSONL text (per-answer rows and the `"qid": "all"` aggregate).
 * A row repeating an earlier row of the same query and run exactly is dropped
 * (counted through `onDuplicates`); other scores for them are an error naming
 * both lines.
 *
 * @param text The JSONL text.
 * @param opts `file` names the input in error messages; `onDuplicates`.
 * @returns One score record per (query, run).
 * @throws {InputError} Listing missing or non-numeric score fields and conflicting repeats.
 * @example
 * ```ts
 * parseNuggetScores('{"qid": "all", "strict_vital_score": 0.5, "strict_all_score": 0.3, "vital_score": 0.75, "all_score": 0.5}', { file: "s.jsonl" });
 * ```
 */
export function parseNuggetScores(
  text: string,
  opts: NuggetReadOptions & { file: string },
): NuggetScore[] {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonl(text, opts.file, scoreOnce(repeats)),
  );
}

function scoreOnce(repeats: Repeats): Decoder<NuggetScore> {
  return once(
    decodeScore,
    repeats,
    (r) => JSON.stringify([r.qid, r.runId ?? null]),
    "qid",
    (r) =>
      `query ${JSON.stringify(r.qid)}${
        r.runId === undefined ? "" : ` of run ${JSON.stringify(r.runId)}`
      }`,
  );
}

/**
 * Reads a nugget-score JSONL file.
 *
 * @param path The file.
 * @param opts `onDuplicates` as in {@linkcode parseNuggetScores}.
 * @returns One score record per (query, run).
 * @throws {InputError} As {@linkcode parseNuggetScores}.
 * @example
 * ```ts
 * const path = `${await Deno.makeTempDir()}/scores.jsonl`;
 * await Deno.writeTextFile(path, '{"qid": "all", "strict_vital_score": 0.5, "strict_all_score": 0.3, "vital_score": 0.75, "all_score": 0.5}');
 * const scores = await readNuggetScores(path);
 * ```
 */
export function readNuggetScores(
  path: string,
  opts: NuggetReadOptions = {},
): Promise<NuggetScore[]> {
  return countRepeats(opts.onDuplicates, (repeats) => decodeJsonlFile(path, scoreOnce(repeats)));
}

/**
 * Formats scores as AutoNuggetizer JSONL (`*_score` fields; `run_id` when known).
 *
 * @param scores The score records.
 * @returns The JSONL text.
 * @example
 * ```ts
 * formatNuggetScores([{ qid: "all", strictVital: 0.5, strictAll: 0.25, vital: 0.75, all: 0.5 }]);
 * ```
 */
export function formatNuggetScores(scores: readonly NuggetScore[]): string {
  return formatJsonl(scores.map((s) => ({
    qid: s.qid,
    ...(s.runId !== undefined ? { run_id: s.runId } : {}),
    strict_vital_score: s.strictVital,
    strict_all_score: s.strictAll,
    vital_score: s.vital,
    all_score: s.all,
  })));
}
