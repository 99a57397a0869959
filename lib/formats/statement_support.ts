/**
 * Statement support files (key point precision): JSONL, one line per
 * (question, run): `{"qid", "run_id", "statements": [{"text", "label":
 * "yes"|"no"|"neutral"|null, "supported": bool}]}`; `supported` is true only
 * when the documents given to the response entail the statement (`yes`).
 *
 * @module
 */
import { decodeJsonl, decodeJsonlFile, type Decoder, type Fields } from "./_json.ts";
import { countRepeats, once, Repeats } from "./_repeats.ts";

/** One statement of a response and its check against the response's documents. */
export interface StatementRecord {
  text: string;
  label: "yes" | "no" | "neutral" | "contradicts" | null;
  supported: boolean;
}

/** The checked statements of one run's response to one question. */
export interface StatementSupport {
  qid: string;
  runId: string;
  statements: StatementRecord[];
  /** 1-based line in the file (0 for records made in memory). */
  line: number;
}

function decode(f: Fields): StatementSupport | undefined {
  const qid = f.string("qid", { coerce: true });
  const runId = f.string("run_id", { coerce: true });
  const list = f.objects("statements");
  if (qid === undefined || runId === undefined || list === undefined) return undefined;
  const statements: StatementRecord[] = [];
  for (const s of list) {
    const text = s.string("text");
    const label = s.has("label")
      ? s.oneOf("label", ["yes", "no", "neutral", "contradicts"] as const)
      : null;
    const raw = (s.obj as Record<string, unknown>).supported;
    const supported = typeof raw === "boolean"
      ? raw
      : s.fail("supported", `expected true or false, found ${JSON.stringify(raw ?? null)}`);
    if (text === undefined || label === undefined || supported === undefined) continue;
    statements.push({ text, label, supported });
  }
  return { qid, runId, statements, line: f.line };
}

function decodeOnce(repeats: Repeats): Decoder<StatementSupport> {
  return once(
    decode,
    repeats,
    (r) => JSON.stringify([r.qid, r.runId]),
    "run_id",
    (r) => `run ${JSON.stringify(r.runId)} on question ${JSON.stringify(r.qid)}`,
    (r) => r.statements,
  );
}

/**
 * Parses a statement support file. A line repeating an earlier line of the same
 * question and run exactly is dropped (counted through `onDuplicates`); other
 * statements for them are an error naming both lines.
 *
 * @param text JSONL text.
 * @param opts `file` names the input in errors; `onDuplicates`.
 * @returns One record per (question, run).
 * @throws {InputError} On malformed lines or conflicting repeats, with file, line and field.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseStatementSupport } from "@lib/formats/mod.ts";
 * const line = '{"qid": "q", "run_id": "r", "statements": [{"text": "A.", "label": "yes", "supported": true}]}';
 * assert.equal(parseStatementSupport(line + "\n", { file: "s.jsonl" })[0].statements[0].supported, true);
 * ```
 */
export function parseStatementSupport(
  text: string,
  opts: { file: string; onDuplicates?: (count: number) => void },
): StatementSupport[] {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonl(text, opts.file, decodeOnce(repeats)),
  );
}

/**
 * Reads a statement support file (see {@linkcode parseStatementSupport}).
 *
 * @param path The JSONL file.
 * @param opts `onDuplicates` as in {@linkcode parseStatementSupport}.
 * @returns The records.
 * @example
 * ```ts
 * import { readStatementSupport } from "@lib/formats/mod.ts";
 * const path = `${await Deno.makeTempDir()}/statements.jsonl`;
 * await Deno.writeTextFile(path, '{"qid": "q", "run_id": "r", "statements": [{"text": "A.", "label": "yes", "supported": true}]}');
 * const checked = await readStatementSupport(path);
 * ```
 */
export function readStatementSupport(
  path: string,
  opts: { onDuplicates?: (count: number) => void } = {},
): Promise<StatementSupport[]> {
  return countRepeats(opts.onDuplicates, (repeats) => decodeJsonlFile(path, decodeOnce(repeats)));
}

/**
 * Formats statement support records as JSONL (the inverse of {@linkcode parseStatementSupport}).
 *
 * @param records The records (`line` ignored).
 * @returns The JSONL text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatStatementSupport } from "@lib/formats/mod.ts";
 * assert.equal(formatStatementSupport([{ qid: "q", runId: "r", statements: [] }]), '{"qid":"q","run_id":"r","statements":[]}\n');
 * ```
 */
export function formatStatementSupport(records: readonly Omit<StatementSupport, "line">[]): string {
  return records.map((r) =>
    JSON.stringify({ qid: r.qid, run_id: r.runId, statements: r.statements }) + "\n"
  ).join("");
}
