/**
 * Reading `crux eval`'s input files (private to the command): runs, qrels,
 * diversity qrels, ratings and the corpus, with the topic rewrite applied and
 * the problems of every file reported together.
 *
 * @module
 */
// The modules `crux eval` runs on, imported one by one rather than through the
// areas' mod.ts: loading modules is a visible share of a run's time. The strict
// parsers, the ratings and corpus readers and the tokenizer load only when used.
import { type Judged, type JudgedInputs, prepareJudged } from "@lib/metrics/judged.ts";
import { scanQrelsTable } from "@lib/metrics/qrels_table.ts";
import { scanQrels } from "@lib/metrics/scan_trec.ts";
import { InputError, type Problem } from "@lib/formats/input_error.ts";
import { checkTextSize, decodeText } from "@lib/formats/read_text_file.ts";
import { blankText } from "@lib/formats/blank_text.ts";
import type { EvalOptions } from "./_eval_options.ts";
import { type ChunkRewrite, evaluateRunFile } from "./_eval_runs.ts";

/** A topic id rewrite, with the item rewrite that goes with it; undefined for none. */
type Rewrite = {
  topic: (id: string) => string;
  item: (itemId: string, rewrite: (id: string) => string) => string;
} | undefined;

/** The rewrite of the `--rewrite` specs, loading its module only when there are some. */
async function rewriteOf(specs: readonly string[]): Promise<Rewrite> {
  if (!specs.length) return undefined;
  const { prefixRewrite, rewriteOwnTopic } = await import("@lib/formats/topic_rewrite.ts");
  return { topic: prefixRewrite(specs), item: rewriteOwnTopic };
}

/**
 * Reads a whole file into one buffer of its size (about twice as fast as
 * `Deno.readFile` on large runs, which copies the bytes once more).
 */
async function readWhole(path: string): Promise<Uint8Array> {
  using file = await Deno.open(path);
  const info = await file.stat();
  if (!info.isFile) return await Deno.readFile(path); // a pipe: its size is unknown
  checkTextSize(path, info.size); // a file too big is refused before it is read
  const bytes = new Uint8Array(info.size);
  let size = 0;
  while (size < bytes.length) {
    const n = await file.read(bytes.subarray(size));
    if (n === null) return bytes.subarray(0, size); // the file shrank
    size += n;
  }
  if (await file.read(new Uint8Array(1)) !== null) return await Deno.readFile(path); // it grew
  return bytes;
}

/**
 * Reads a file, turning a missing or unreadable file into a clear message; then
 * checks it ({@linkcode checkBytes}) unless `check` is false.
 */
async function readBytes(path: string, what: string, check = true): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = await readWhole(path);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const reason = error instanceof Deno.errors.NotFound
      ? "the file does not exist"
      : (error as Error).message;
    throw new Error(`Cannot read ${what} "${path}": ${reason}; check the path`);
  }
  if (check) checkBytes(bytes, path, what);
  return bytes;
}

/** Refuses invalid UTF-8 (an error naming the line, never U+FFFD) and a blank file. */
function checkBytes(bytes: Uint8Array, path: string, what: string): void {
  if (blankText(bytes, path)) {
    throw new InputError([{ file: path, line: 0, message: `the ${what} file is empty` }]);
  }
}

/**
 * Applies the topic rewrite to the lines of a TREC run or qrels file: the
 * topic (first column) and a document id starting with `{topic}:` (third
 * column) under its own topic's rewrite (a passage of another topic's document
 * follows that topic). Line numbers are kept, so errors still point at the right line.
 */
function rewriteTrec(bytes: Uint8Array, rewrite: Rewrite): Uint8Array {
  if (!rewrite) return bytes;
  const text = new TextDecoder().decode(bytes); // already checked by readBytes
  const out = text.replace(
    /^(\uFEFF?[ \t]*)(\S+)([ \t]+\S+[ \t]+)(\S+)/gm,
    (line, lead: string, topic: string, middle: string, doc: string) => {
      const to = rewrite.topic(topic);
      const item = rewrite.item(doc, rewrite.topic);
      return to === topic && item === doc ? line : lead + to + middle + item;
    },
  );
  return out === text ? bytes : new TextEncoder().encode(out);
}

/** Reads a qrels file (fast path first, strict parser for errors). */
async function loadQrels(
  path: string,
  rewrite: Rewrite,
): Promise<Pick<JudgedInputs, "qrels" | "qrelsTable" | "qrelsFile">> {
  // The scanner checks UTF-8 as it reads (its fast lines are ASCII), so a file it
  // reads into rows is not checked twice; the rewrite decodes the text first.
  const bytes = rewriteTrec(await readBytes(path, "qrels", rewrite !== undefined), rewrite);
  const qrelsTable = scanQrelsTable(bytes);
  if (!qrelsTable?.size) checkBytes(bytes, path, "qrels"); // names bad UTF-8, or a blank file
  if (qrelsTable) return { qrelsTable, qrelsFile: path };
  const { parseQrels } = await import("@lib/formats/trec_qrels.ts");
  return { qrels: parseQrels(decodeText(bytes, path), { file: path }) };
}

/** Reads a diversity qrels file, keeping the subtopic column. */
async function loadDiversityQrels(path: string, rewrite: Rewrite) {
  const bytes = rewriteTrec(await readBytes(path, "diversity qrels"), rewrite);
  const text = decodeText(bytes, path);
  const rows = scanQrels(text);
  if (rows) return rows;
  const { parseQrels } = await import("@lib/formats/trec_qrels.ts");
  return parseQrels(text, { file: path });
}

/** Reads CRUX ratings (JSONL), or ratings aligned to the ranking of `alignedTo` (one JSON document). */
async function loadJudgments(
  path: string,
  rewrite: Rewrite,
  alignedTo: string | undefined,
  notes: string[],
) {
  if (alignedTo) {
    // The one reader of aligned ratings (`crux import crux --aligned-to` uses it too).
    const { readAlignedRatings } = await import("@lib/formats/aligned_ratings.ts");
    return readAlignedRatings(path, alignedTo, rewrite ? { rewriteTopic: rewrite.topic } : {});
  }
  const { readJudgments } = await import("@lib/formats/crux_judgments.ts");
  const onDuplicates = (n: number) => {
    if (n) notes.push(`# judgments "${path}": ${n} identical repeated lines dropped`);
  };
  return readJudgments(
    path,
    rewrite ? { rewriteTopic: rewrite.topic, onDuplicates } : { onDuplicates },
  );
}

/** A token counter over the corpus texts, importing the tokenizer only now. */
async function tokenCounter(path: string, opts: EvalOptions, rewrite: Rewrite) {
  const { countTokens } = await import("@lib/text/mod.ts");
  const { readCorpus } = await import("@lib/formats/crux_corpus.ts");
  const texts = new Map<string, string>();
  // Passage ids start with their topic id: the prefix rewrite maps them too.
  const mapId = rewrite?.topic ?? ((id: string) => id);
  for (const entry of await readCorpus(path)) texts.set(mapId(entry.id), entry.contents);
  const cache = new Map<string, number>();
  return (id: string): number => {
    let n = cache.get(id);
    if (n === undefined) {
      const text = texts.get(id);
      if (text === undefined) {
        throw new Error(
          `Cannot count tokens of "${id}": it is not in the corpus "${path}"; pass the corpus holding every retrieved passage`,
        );
      }
      cache.set(id, n = countTokens(text, { tokenizer: opts.tokenizer }));
    }
    return n;
  };
}

/** Everything `crux eval` needs besides the runs, which are read while they are evaluated. */
export interface EvalInputs {
  judged: Judged;
  /** The `--rewrite` of topic ids, for each chunk of a run file (undefined: none). */
  rewrite: ChunkRewrite;
  /** Notes on the judgment files (identical repeated lines dropped). */
  notes: string[];
}

/**
 * Reads and checks the judgment files before anything is evaluated, reporting
 * the problems of all of them together (file:line each); when there are some,
 * the run files are checked too and their problems join the list.
 *
 * @throws {InputError} Listing the problems of every file (up to 50).
 * @throws {Error} When a file cannot be read.
 */
export async function loadInputs(opts: EvalOptions): Promise<EvalInputs> {
  const inputs: JudgedInputs = {};
  const notes: string[] = [];
  const problems: Problem[] = [];
  let total = 0;
  const attempt = async <T>(read: () => T | Promise<T>): Promise<T | undefined> => {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
      total += error.total;
      return undefined;
    }
  };
  const rewrite = await rewriteOf(opts.rewrite);
  const chunkRewrite: ChunkRewrite = rewrite ? (bytes) => rewriteTrec(bytes, rewrite) : undefined;
  if (opts.qrels) Object.assign(inputs, await attempt(() => loadQrels(opts.qrels!, rewrite)));
  if (opts.divQrels) {
    inputs.diversityQrels = await attempt(() => loadDiversityQrels(opts.divQrels!, rewrite));
  }
  if (opts.judgments) {
    inputs.judgments = await attempt(() =>
      loadJudgments(opts.judgments!, rewrite, opts.alignedTo, notes)
    );
  }
  // Preparing the judgments finds documents judged twice in the qrels.
  let judged = await attempt(() => prepareJudged(inputs, { tau: opts.tau }));
  if (problems.length) {
    for (const path of opts.runs) {
      await attempt(() => evaluateRunFile(path, undefined, [], {}, undefined, chunkRewrite));
    }
    throw new InputError(problems.slice(0, 50), total);
  }
  if (opts.corpus && opts.measures.some((m) => m.name === "Den")) {
    judged = { ...judged!, tokens: await tokenCounter(opts.corpus, opts, rewrite) };
  }
  if (judged!.qrelsRepeats) {
    notes.push(`# qrels "${opts.qrels}": ${judged!.qrelsRepeats} identical repeated lines dropped`);
  }
  return { judged: judged!, rewrite: chunkRewrite, notes };
}
