/**
 * Sub-question decompositions with types and coverage judgments (Xie et al.), JSON:
 * `[{"question", "sub_questions_with_types": [{"sub_question", "type"}]}]` and
 * `[{"question", "judgment": "answered" | "unanswered", "text_span"}]`.
 *
 * @module
 */
import { decodeJsonl, Fields, parseJsonDocument } from "./_json.ts";
import { readText } from "./_lines.ts";
import { Problems, show } from "./_problems.ts";

/** Sub-question types. */
export const SUBQUESTION_TYPES = ["core", "background", "follow-up"] as const;

/** A typed sub-question. */
export interface TypedSubquestion {
  text: string;
  type: (typeof SUBQUESTION_TYPES)[number];
}

/** A complex question with its typed decomposition. */
export interface Decomposition {
  question: string;
  subQuestions: TypedSubquestion[];
  /** Sub-questions given without a type (read with `untyped: true` only). */
  untyped?: string[];
}

/** Whether a text answers a sub-question, with the span that does. */
export interface CoverageJudgment {
  question: string;
  judgment: "answered" | "unanswered";
  textSpan?: string;
}

function decodeArray<T>(
  text: string,
  file: string,
  decode: (f: Fields) => T | undefined,
  single = false,
): T[] {
  let doc = parseJsonDocument(text, file);
  // One question as a lone object (pretty-printed, so not JSONL) is a list of one.
  if (single && doc !== null && typeof doc === "object" && !Array.isArray(doc)) doc = [doc];
  const problems = new Problems(file);
  if (!Array.isArray(doc)) {
    problems.add(0, undefined, `expected a JSON list of objects, found ${show(doc)}`);
    problems.throwIfAny();
  }
  const out: T[] = [];
  (doc as unknown[]).forEach((item, i) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      problems.add(0, `[${i}]`, `expected an object, found ${show(item)}`);
      return;
    }
    const f = new Fields(item as Record<string, unknown>, 0, problems, `[${i}].`);
    const value = decode(f);
    if (f.ok && value !== undefined) out.push(value);
  });
  problems.throwIfAny();
  return out;
}

/**
 * The sub-question type a label names, read leniently: case, spaces, "_" and "-"
 * do not matter, nor a trailing word ("Core question", "follow up", "Background
 * info").
 *
 * @param label A type as written in a file.
 * @returns The type, or undefined when the label names none.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(subquestionType(" Follow up"), "follow-up");
 * assert.equal(subquestionType("Core question"), "core");
 * assert.equal(subquestionType("main"), undefined);
 * ```
 */
export function subquestionType(label: string): TypedSubquestion["type"] | undefined {
  const t = label.trim().toLowerCase().replace(/[\s_-]+/g, "");
  return t.startsWith("core")
    ? "core"
    : t.startsWith("background")
    ? "background"
    : t.startsWith("followup")
    ? "follow-up"
    : undefined;
}

function decoder(untyped: boolean) {
  return (f: Fields): Decomposition | undefined => {
    const question = f.string("question");
    const subQuestions: TypedSubquestion[] = [];
    const missing: string[] = [];
    for (const s of f.objects("sub_questions_with_types") ?? []) {
      const text = s.string("sub_question");
      const value = s.obj.type;
      if (untyped && (value === undefined || value === null || value === "")) {
        if (text !== undefined) missing.push(text);
        continue;
      }
      const raw = s.string("type");
      if (raw === undefined) continue;
      const type = subquestionType(raw);
      if (!type) {
        s.fail("type", `expected one of ${SUBQUESTION_TYPES.join(", ")}, found ${show(raw)}`);
      } else if (text !== undefined) subQuestions.push({ text, type });
    }
    if (question === undefined) return undefined;
    return missing.length
      ? { question, subQuestions, untyped: missing }
      : { question, subQuestions };
  };
}

function decodeCoverage(f: Fields): CoverageJudgment | undefined {
  const question = f.string("question");
  const judgment = f.oneOf("judgment", ["answered", "unanswered"] as const);
  const textSpan = f.string("text_span", { optional: true });
  if (question === undefined || !judgment) return undefined;
  return textSpan === undefined ? { question, judgment } : { question, judgment, textSpan };
}

/**
 * Parses a typed decomposition file: a JSON list, JSONL with one question a line, or
 * one question as a single JSON object.
 *
 * @param text The JSON (or JSONL) text.
 * @param opts `file` names the input in error messages (problems name the JSON path);
 *   `untyped: true` keeps a sub-question whose type is missing, null or "" out of
 *   `subQuestions` and lists it in `untyped` instead of refusing it (an annotator's
 *   unfinished work).
 * @returns The decompositions in file order.
 * @throws {InputError} Listing missing fields and types other than core/background/follow-up
 *   (read leniently, see {@linkcode subquestionType}).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseDecompositions('[{"question": "Q", "sub_questions_with_types": [{"sub_question": "a?", "type": "core"}]}]', { file: "d.json" }), [{ question: "Q", subQuestions: [{ text: "a?", type: "core" }] }]);
 * ```
 */
export function parseDecompositions(
  text: string,
  opts: { file: string; untyped?: boolean },
): Decomposition[] {
  const decode = decoder(opts.untyped ?? false);
  if (text.trimStart().startsWith("{")) {
    let whole = true;
    try {
      JSON.parse(text);
    } catch {
      whole = false;
    }
    return whole
      ? decodeArray(text, opts.file, decode, true)
      : decodeJsonl(text, opts.file, decode);
  }
  return decodeArray(text, opts.file, decode);
}

/**
 * Reads a typed decomposition file.
 *
 * @param path The JSON (or JSONL) file.
 * @param opts `untyped` as in {@linkcode parseDecompositions}.
 * @returns The decompositions.
 * @throws {InputError} As {@linkcode parseDecompositions}.
 * @example
 * ```ts
 * const path = `${await Deno.makeTempDir()}/decompositions.json`;
 * await Deno.writeTextFile(path, '[{"question": "Q", "sub_questions_with_types": [{"sub_question": "a?", "type": "core"}]}]');
 * const decompositions = await readDecompositions(path);
 * ```
 */
export async function readDecompositions(
  path: string,
  opts: { untyped?: boolean } = {},
): Promise<Decomposition[]> {
  return parseDecompositions(await readText(path), { file: path, ...opts });
}

/**
 * Parses a coverage-judgment file.
 *
 * @param text The JSON text.
 * @param opts `file` names the input in error messages.
 * @returns The judgments in file order.
 * @throws {InputError} Listing missing fields and judgments other than answered/unanswered.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseCoverageJudgments('[{"question": "a?", "judgment": "answered", "text_span": "A."}]', { file: "c.json" }), [{ question: "a?", judgment: "answered", textSpan: "A." }]);
 * ```
 */
export function parseCoverageJudgments(text: string, opts: { file: string }): CoverageJudgment[] {
  return decodeArray(text, opts.file, decodeCoverage);
}

/**
 * Reads a coverage-judgment file.
 *
 * @param path The JSON file.
 * @returns The judgments.
 * @throws {InputError} As {@linkcode parseCoverageJudgments}.
 * @example
 * ```ts
 * const path = `${await Deno.makeTempDir()}/coverage.json`;
 * await Deno.writeTextFile(path, '[{"question": "a?", "judgment": "answered", "text_span": "A."}]');
 * const judgments = await readCoverageJudgments(path);
 * ```
 */
export async function readCoverageJudgments(path: string): Promise<CoverageJudgment[]> {
  return parseCoverageJudgments(await readText(path), { file: path });
}
