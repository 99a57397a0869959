/**
 * Typed coverage judgments for scoring (sub-question coverage by type), JSONL,
 * one line per (question, sub-question, system):
 * `{"question_id", "sub_question", "type": "core"|"background"|"follow-up", "system",
 * "answered": bool, "retrieved": bool?, "chunk_share": number?, "position": number?}`.
 *
 * @module
 */
import { decodeJsonl, decodeJsonlFile, type Decoder, type Fields } from "./_json.ts";
import { countRepeats, once, Repeats } from "./_repeats.ts";

/** Options of the typed coverage readers. */
export interface TypedCoverageOptions {
  /**
   * Receives the number of lines that repeated an earlier judgment of the same
   * system, question and sub-question exactly, which are dropped; one with
   * other values is an error naming both lines.
   */
  onDuplicates?: (count: number) => void;
}

function decodeOnce(repeats: Repeats): Decoder<TypedCoverageLine> {
  return once(
    decode,
    repeats,
    (r) => JSON.stringify([r.system, r.questionId, r.subQuestion]),
    "sub_question",
    (r) =>
      `system ${JSON.stringify(r.system)} on sub-question ${JSON.stringify(r.subQuestion)} of ${
        JSON.stringify(r.questionId)
      }`,
  );
}

/** One judged sub-question of one system's answer. */
export interface TypedCoverageLine {
  questionId: string;
  subQuestion: string;
  type: "core" | "background" | "follow-up";
  system: string;
  answered: boolean;
  retrieved?: boolean;
  /** Share (0-1) of the answer's retrieved chunks that address the sub-question. */
  chunkShare?: number;
  /** Where the addressing text starts in the answer, 0-100 % of its words. */
  position?: number;
}

function bool(f: Fields, key: string, optional: boolean): boolean | undefined {
  const v = f.obj[key];
  if (v === undefined || v === null) {
    return optional ? undefined : f.fail(key, "missing; add this field");
  }
  if (typeof v !== "boolean") {
    return f.fail(key, `expected true or false, found ${JSON.stringify(v)}`);
  }
  return v;
}

function decode(f: Fields): TypedCoverageLine | undefined {
  const questionId = f.string("question_id", { coerce: true });
  const subQuestion = f.string("sub_question");
  const type = f.oneOf("type", ["core", "background", "follow-up"] as const);
  const system = f.string("system", { coerce: true });
  const answered = bool(f, "answered", false);
  const retrieved = bool(f, "retrieved", true);
  const chunkShare = f.number("chunk_share", { optional: true });
  const position = f.number("position", { optional: true });
  if (chunkShare !== undefined && (chunkShare < 0 || chunkShare > 1)) {
    return f.fail("chunk_share", `expected a share from 0 to 1, found ${chunkShare}`);
  }
  if (position !== undefined && (position < 0 || position > 100)) {
    return f.fail("position", `expected a percentage from 0 to 100, found ${position}`);
  }
  if (
    questionId === undefined || subQuestion === undefined || type === undefined ||
    system === undefined || answered === undefined
  ) return undefined;
  return {
    questionId,
    subQuestion,
    type,
    system,
    answered,
    ...(retrieved !== undefined ? { retrieved } : {}),
    ...(chunkShare !== undefined ? { chunkShare } : {}),
    ...(position !== undefined ? { position } : {}),
  };
}

/**
 * Parses typed coverage judgments. A line repeating an earlier judgment of the
 * same system, question and sub-question exactly is dropped (counted through
 * `onDuplicates`); one with other values is an error naming both lines.
 *
 * @param text JSONL text.
 * @param opts `file` names the input in errors; `onDuplicates`.
 * @returns The lines in file order.
 * @throws {InputError} On malformed lines or conflicting repeats, with file, line and field.
 * @example
 * ```ts
 * import { parseTypedCoverage } from "@lib/formats/mod.ts";
 * parseTypedCoverage(
 *   '{"question_id": "q1", "sub_question": "Who?", "type": "core", "system": "s", "answered": true}\n',
 *   { file: "cov.jsonl" },
 * );
 * ```
 */
export function parseTypedCoverage(
  text: string,
  opts: TypedCoverageOptions & { file: string },
): TypedCoverageLine[] {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonl(text, opts.file, decodeOnce(repeats)),
  );
}

/**
 * Reads typed coverage judgments (see {@linkcode parseTypedCoverage}).
 *
 * @param path The JSONL file.
 * @param opts `onDuplicates` as in {@linkcode parseTypedCoverage}.
 * @returns The lines in file order.
 * @example
 * ```ts
 * import { readTypedCoverage } from "@lib/formats/mod.ts";
 * const path = `${await Deno.makeTempDir()}/coverage.jsonl`;
 * await Deno.writeTextFile(path, '{"question_id": "q1", "sub_question": "Who?", "type": "core", "system": "s", "answered": true}\n');
 * const lines = await readTypedCoverage(path);
 * ```
 */
export function readTypedCoverage(
  path: string,
  opts: TypedCoverageOptions = {},
): Promise<TypedCoverageLine[]> {
  return countRepeats(opts.onDuplicates, (repeats) => decodeJsonlFile(path, decodeOnce(repeats)));
}
