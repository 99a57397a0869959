/** Decoding JSON and JSONL records with problem reporting; private to `@lib/formats`. */
import { readLines, splitLines } from "./_lines.ts";
import { Problems, show } from "./_problems.ts";

type Json = Record<string, unknown>;

const EMPTY = "the file is empty; expected one JSON object per line";

/** Reads typed fields of one JSON object, recording a problem for each bad one. */
export class Fields {
  /** False once any field was missing or of the wrong type. */
  ok = true;
  constructor(
    readonly obj: Json,
    readonly line: number,
    readonly problems: Problems,
    readonly prefix = "",
    readonly parent?: Fields,
  ) {}

  /** Records a problem about `key` and marks the record (and its parents) bad. */
  fail(key: string, message: string): undefined {
    this.markBad();
    this.problems.add(this.line, this.prefix + key, message);
    return undefined;
  }

  /** Marks this record and the records it is nested in as bad. */
  markBad(): void {
    this.ok = false;
    this.parent?.markBad();
  }

  /** True when the object has `key` with a non-null value. */
  has(key: string): boolean {
    return this.obj[key] !== undefined && this.obj[key] !== null;
  }

  /** The first of `keys` present, or undefined. */
  first(keys: string[]): string | undefined {
    return keys.find((k) => this.has(k));
  }

  /** A required string (numbers are accepted and turned into strings when `coerce`). */
  string(key: string, opts: { optional?: boolean; coerce?: boolean } = {}): string | undefined {
    const value = this.obj[key];
    if (value === undefined || value === null) {
      return opts.optional ? undefined : this.fail(key, "missing; add this field");
    }
    if (typeof value === "string") return value;
    if (opts.coerce && typeof value === "number") return String(value);
    return this.fail(key, `expected a string, found ${show(value)}`);
  }

  /** A required number; `integer` also rejects fractions. */
  number(key: string, opts: { optional?: boolean; integer?: boolean } = {}): number | undefined {
    const value = this.obj[key];
    if (value === undefined || value === null) {
      return opts.optional ? undefined : this.fail(key, "missing; add this field");
    }
    if (typeof value === "number" && !Number.isFinite(value)) {
      return this.fail(key, "number out of range (overflows a 64-bit float, e.g. 1e400)");
    }
    if (typeof value !== "number") {
      return this.fail(key, `expected a number, found ${show(value)}`);
    }
    if (opts.integer && !Number.isInteger(value)) {
      return this.fail(key, `expected an integer, found ${show(value)}`);
    }
    return value;
  }

  /** A required array (elements unchecked). */
  array(key: string, opts: { optional?: boolean } = {}): unknown[] | undefined {
    const value = this.obj[key];
    if (value === undefined || value === null) {
      return opts.optional ? undefined : this.fail(key, "missing; add this field");
    }
    if (!Array.isArray(value)) return this.fail(key, `expected a list, found ${show(value)}`);
    return value;
  }

  /** A required array of strings (numbers coerced to strings when `coerce`). */
  strings(key: string, opts: { optional?: boolean; coerce?: boolean } = {}): string[] | undefined {
    const list = this.array(key, opts);
    if (!list) return undefined;
    const out: string[] = [];
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      if (typeof v === "string") out.push(v);
      else if (opts.coerce && typeof v === "number") out.push(String(v));
      else return this.fail(`${key}[${i}]`, `expected a string, found ${show(v)}`);
    }
    return out;
  }

  /** A required string that must be one of `values`. */
  oneOf<T extends string>(
    key: string,
    values: readonly T[],
    opts: { optional?: boolean } = {},
  ): T | undefined {
    const value = this.string(key, opts);
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) {
      return this.fail(key, `expected one of ${values.join(", ")}, found ${show(value)}`);
    }
    return value as T;
  }

  /** Fields of a nested object at `key` (the problem paths get `key.` as prefix). */
  object(key: string, opts: { optional?: boolean } = {}): Fields | undefined {
    const value = this.obj[key];
    if (value === undefined || value === null) {
      return opts.optional ? undefined : this.fail(key, "missing; add this field");
    }
    if (typeof value !== "object" || Array.isArray(value)) {
      return this.fail(key, `expected an object, found ${show(value)}`);
    }
    return this.child(value as Json, `${key}.`);
  }

  /** Fields of a nested value (already known to be an object) sharing this record's state. */
  child(obj: Json, prefix: string): Fields {
    return new Fields(obj, this.line, this.problems, this.prefix + prefix, this);
  }

  /** Fields of each element of the array at `key`; non-objects are recorded as problems. */
  objects(key: string, opts: { optional?: boolean } = {}): Fields[] | undefined {
    const list = this.array(key, opts);
    if (!list) return undefined;
    const out: Fields[] = [];
    list.forEach((v, i) => {
      if (v === null || typeof v !== "object" || Array.isArray(v)) {
        this.fail(`${key}[${i}]`, `expected an object, found ${show(v)}`);
      } else out.push(this.child(v as Json, `${key}[${i}].`));
    });
    return out;
  }
}

/** Turns one decoded record's fields into a value, or undefined when it is bad. */
export type Decoder<T> = (fields: Fields) => T | undefined;

/** Parses one JSONL line into a record, recording problems; empty lines give undefined. */
export function decodeLine<T>(
  line: string,
  lineNo: number,
  problems: Problems,
  decode: Decoder<T>,
): T | undefined {
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const opening = /^\s*[[{]\s*$|^\s*\{\s*"[^"]*"\s*:\s*[[{]?\s*$/.test(line);
    problems.add(
      lineNo,
      undefined,
      lineNo === 1 && opening
        ? "the file is one JSON document spread over several lines, not JSONL (one JSON object " +
          "per line); convert it, or use the option that reads that document"
        : `invalid JSON (${reason}); each line must be one JSON object`,
    );
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    problems.add(lineNo, undefined, `expected a JSON object, found ${show(value)}`);
    return undefined;
  }
  const fields = new Fields(value as Json, lineNo, problems);
  const record = decode(fields);
  return fields.ok ? record : undefined;
}

/** Decodes JSONL text; throws one `InputError` listing every problem. */
export function decodeJsonl<T>(text: string, file: string, decode: Decoder<T>): T[] {
  const problems = new Problems(file);
  const out: T[] = [];
  const lines = splitLines(text);
  let nonBlank = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== "") nonBlank++;
    const record = decodeLine(lines[i], i + 1, problems, decode);
    if (record !== undefined) out.push(record);
  }
  if (nonBlank === 0) problems.add(0, undefined, EMPTY);
  problems.throwIfAny();
  return out;
}

/**
 * Streams a JSONL file record by record; problems are collected and thrown as one
 * `InputError` after the last line (records before it have been yielded).
 */
export async function* streamJsonl<T>(path: string, decode: Decoder<T>): AsyncGenerator<T> {
  const problems = new Problems(path);
  let lineNo = 0;
  let nonBlank = 0;
  for await (const line of readLines(path)) {
    lineNo++;
    if (line.trim() !== "") nonBlank++;
    const record = decodeLine(line, lineNo, problems, decode);
    if (record !== undefined) yield record;
  }
  if (nonBlank === 0) problems.add(0, undefined, EMPTY);
  problems.throwIfAny();
}

/** Reads a whole JSONL file into records (streamed, so memory holds only the records). */
export async function decodeJsonlFile<T>(path: string, decode: Decoder<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const record of streamJsonl(path, decode)) out.push(record);
  return out;
}

/** Parses a whole JSON document, turning syntax errors into an `InputError` for `file`. */
export function parseJsonDocument(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const problems = new Problems(file);
    problems.add(0, undefined, `invalid JSON (${reason}); check the file is one JSON document`);
    problems.throwIfAny();
  }
}
