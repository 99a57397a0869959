/**
 * Evaluating `crux eval`'s run files (private to the command): each file is
 * read in chunks of whole lines and evaluated topic by topic with the
 * judgments in memory, so memory does not grow with the run. A run whose topics
 * are not grouped is read whole instead, and a note says so and what it cost.
 *
 * @module
 */
import type { Measure } from "@lib/metrics/measure.ts";
import type { EvaluateOptions, EvaluationResult } from "@lib/metrics/evaluate.ts";
import type { Judged } from "@lib/metrics/judged.ts";
import { RunEvaluator } from "@lib/metrics/run_evaluator.ts";
import { runTableChunks } from "@lib/metrics/run_table_chunks.ts";
import { InputError } from "@lib/formats/input_error.ts";
import { LineChunks } from "@lib/formats/line_chunks.ts";

/** The evaluation of one run file, with what its reading cost when it could not stream. */
export interface RunFileResult {
  /** Undefined when only checked (no judgments). */
  result?: EvaluationResult;
  /** Topic ids of the run, in first-seen order. */
  topics: string[];
  /** A note when the file was read whole (its topics are not grouped). */
  note?: string;
}

/** A rewrite of the lines of a chunk (topic ids), keeping its line count. */
export type ChunkRewrite = ((bytes: Uint8Array) => Uint8Array) | undefined;

/** The strict parser's error for the chunk the fast scanner rejected, with file line numbers. */
async function strictError(
  chunks: LineChunks,
  bytes: Uint8Array,
  offset: number,
): Promise<Error> {
  await chunks.checkUtf8(bytes, offset); // invalid UTF-8 is named by line, column and byte
  const { parseRun } = await import("@lib/formats/trec_run.ts");
  const text = new TextDecoder().decode(bytes);
  try {
    parseRun(text, { file: chunks.path, run: "run" });
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const first = await chunks.lineAt(offset);
    return new InputError(
      error.problems.map((p) => ({ ...p, line: p.line > 0 ? p.line + first - 1 : 0 })),
      error.total,
    );
  }
  return new Error(
    `Cannot read run "${chunks.path}" near byte ${offset}: the fast reader rejected a line the ` +
      "strict parser accepts; please report this file",
  );
}

/** Reads a whole run file into one table (the fallback for runs not grouped by topic). */
async function wholeTable(chunks: LineChunks, rewrite: ChunkRewrite, run: string | undefined) {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const c of chunks) {
    const bytes = rewrite ? rewrite(c.bytes) : c.bytes.slice();
    parts.push(bytes);
    size += bytes.length;
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  parts.length = 0;
  const { scanRunTable } = await import("@lib/metrics/run_table.ts");
  return { table: scanRunTable(all, { run }), size };
}

async function* rewritten(chunks: LineChunks, rewrite: ChunkRewrite) {
  for await (const c of chunks) yield rewrite ? { ...c, bytes: rewrite(c.bytes) } : c;
}

/**
 * Evaluates (or, without judgments, only checks) one run file.
 *
 * @param path The run file.
 * @param judged The judgments; undefined to only check the file.
 * @param measures The measures.
 * @param opts Evaluation options.
 * @param name The run's name (default: the first line's tag).
 * @param rewrite The topic rewrite of `--rewrite`, applied to each chunk.
 * @throws {InputError} For a malformed or empty run, naming file and line.
 */
export async function evaluateRunFile(
  path: string,
  judged: Judged | undefined,
  measures: readonly Measure[],
  opts: EvaluateOptions,
  name: string | undefined,
  rewrite: ChunkRewrite,
): Promise<RunFileResult> {
  try {
    await Deno.stat(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "the file does not exist"
      : (error as Error).message;
    throw new Error(`Cannot read run "${path}": ${reason}; check the path`);
  }
  // 1 MiB chunks: the reading buffer, the joined chunk and the columns stay small, and a
  // one-shot evaluation touches (and faults in) less fresh memory than with 4 MiB.
  // The run scanner checks what is not ASCII as it reads (the chunks are not checked
  // twice), unless the rewrite decodes them first.
  const chunks = new LineChunks(path, { chunkBytes: 1 << 20, checkUtf8: rewrite !== undefined });
  const evaluator = judged ? new RunEvaluator(measures, judged, opts) : undefined;
  const topics: string[] = [];
  let rows = 0;
  let repeated: string | undefined;
  for await (const c of runTableChunks(rewritten(chunks, rewrite), { run: name, reuse: true })) {
    if (c.malformed) throw await strictError(chunks, c.malformed, c.offset);
    rows += c.table.size;
    if (evaluator) {
      repeated = evaluator.add(c.table);
      if (repeated !== undefined) break;
    }
    for (const t of c.table.topics.keys()) topics.push(t);
  }
  if (rows === 0 && repeated === undefined) {
    throw new InputError([{
      file: path,
      line: 0,
      message: 'the run file is empty; expected "topic Q0 docid rank score tag" lines',
    }]);
  }
  if (!evaluator) return { topics };
  if (repeated === undefined) return { result: evaluator.finish(), topics };
  // Not grouped by topic: read whole.
  const { table, size } = await wholeTable(chunks, rewrite, name ?? evaluator.run);
  if (!table) { // a bad line after the repeated topic: the streaming check names it
    await evaluateRunFile(path, undefined, measures, opts, name, rewrite);
    throw new Error(`Cannot read run "${path}": a line is malformed`);
  }
  const { evaluate } = await import("@lib/metrics/evaluate.ts");
  const result = evaluate(table, measures, judged!, opts);
  const note = `# ${table.run}: the run is not grouped by topic (topic "${repeated}" comes back ` +
    `after other topics), so it was read whole into memory (${
      (size / 2 ** 20).toFixed(0)
    } MiB of text plus about ${
      ((table.size * 28) / 2 ** 20).toFixed(0)
    } MiB of columns); sort it by topic (e.g. sort -s -k1,1) to evaluate it in constant memory`;
  return { result, topics: [...table.topics.keys()], note };
}
