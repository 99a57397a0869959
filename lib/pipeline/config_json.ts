/**
 * Reading a config file as strictly as the data readers read theirs: strict
 * UTF-8 (a bad byte located by line and column), a byte-order mark accepted,
 * a JSON syntax error located by line and column, a number out of range named
 * with its field, a folder or a missing file named.
 *
 * @module
 */
import { readTextFile } from "@lib/formats/mod.ts";

/** A number that does not fit a 64-bit float, as written in the file. */
class OutOfRange {
  constructor(readonly source: string) {}
}

/**
 * Reads a config file's text: strict UTF-8 without a byte-order mark.
 *
 * @param path The file.
 * @param what What the file is, for messages (e.g. `experiment config`).
 * @returns The text.
 * @throws {Deno.errors.NotFound} Naming the file when it is missing.
 * @throws {Deno.errors.IsADirectory} Naming the path when it is a folder.
 * @throws {InputError} When the file is not UTF-8, with its line and column.
 * @example
 * ```ts
 * import { readConfigText } from "@lib/pipeline/mod.ts";
 * const text = await readConfigText("notebooks/configs/sample-offline.json", "experiment config");
 * ```
 */
export async function readConfigText(path: string, what: string): Promise<string> {
  try {
    return await readTextFile(path);
  } catch (error) {
    // Invalid UTF-8 comes as the readers' located error (file, line, column), unchanged.
    if (error instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(`Cannot read ${what} "${path}": no such file; check the path`);
    }
    if (error instanceof Deno.errors.IsADirectory) {
      throw new Deno.errors.IsADirectory(
        `Cannot read ${what} "${path}": it is a folder, not a file; give the path of the config file`,
      );
    }
    throw error;
  }
}

/**
 * Parses a config's JSON text: a byte-order mark is dropped, a syntax error
 * names the line and column, and a number too large for a 64-bit float (e.g.
 * `1e400`, which JSON.parse turns into Infinity) is an error naming its field.
 *
 * @param text The JSON text.
 * @param file The file, for messages.
 * @param what What the file is, for messages (e.g. `experiment config`).
 * @returns The parsed value.
 * @throws {SyntaxError} On invalid JSON, with line and column.
 * @throws {RangeError} On a number out of range, naming the field and the number as written.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseConfigJson } from "@lib/pipeline/mod.ts";
 * assert.deepEqual(parseConfigJson('\uFEFF{"a": [1]}', "c.json", "config"), { a: [1] });
 * assert.throws(
 *   () => parseConfigJson('{"analysis": {"tau": 1e400}}', "c.json", "config"),
 *   /field "analysis.tau" is 1e400, a number out of range/,
 * );
 * ```
 */
export function parseConfigJson(text: string, file: string, what: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(
      body,
      // The third argument (the number as written) is given by current engines.
      function (_key: string, v: unknown, context?: { source?: string }) {
        return typeof v === "number" && !Number.isFinite(v)
          ? new OutOfRange(context?.source ?? String(v))
          : v;
      } as (key: string, value: unknown) => unknown,
    );
  } catch (error) {
    throw new SyntaxError(
      `Cannot read ${what} "${file}": ${located(body, (error as Error).message)}; fix the JSON`,
    );
  }
  const found = outOfRange(value, "");
  if (found) {
    throw new RangeError(
      `Cannot read ${what} "${file}": field "${found.path}" is ${found.source}, a number out ` +
        "of range (beyond ±1.8e308, the largest a 64-bit float holds); write a smaller number",
    );
  }
  return value;
}

/** The parser's message with the line and column of its position, when it gives one. */
function located(text: string, message: string): string {
  if (/line \d+/.test(message)) return message;
  const at = /at position (\d+)/.exec(message);
  if (!at) return message;
  const pos = Number(at[1]);
  const before = text.slice(0, pos);
  const line = before.split("\n").length;
  const column = pos - (before.lastIndexOf("\n") + 1) + 1;
  return `${message} (line ${line} column ${column})`;
}

function outOfRange(
  value: unknown,
  path: string,
): { path: string; source: string } | undefined {
  if (value instanceof OutOfRange) {
    return { path: path || "(the whole file)", source: value.source };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const f = outOfRange(value[i], `${path}[${i}]`);
      if (f) return f;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const f = outOfRange(v, path ? `${path}.${k}` : k);
      if (f) return f;
    }
  }
  return undefined;
}
