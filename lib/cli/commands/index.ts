/**
 * `crux index`: builds a persistent BM25 index from a JSONL passage file.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { streamCorpus } from "../../formats/crux_corpus.ts";
import { guardOutputs, INDEX_FOLDER } from "../../formats/guard_outputs.ts";
import { Bm25Index } from "../../retrieval/bm25_index.ts";
import { type Command, type Io, UsageError } from "../command.ts";
import { numberOption } from "../_options.ts";

const HELP = `Usage: deno task crux index --passages FILE.jsonl --out DIR [options]

Builds a BM25 index (Lucene EnglishAnalyzer terms, Lucene BM25 scoring) from a
JSONL passage file with one {"id": ..., "contents": ...} (or "text") object a
line (ids unique), and saves it as the directory DIR. Passages are streamed,
analyzed in worker threads beside the main one, and inverted in segments that
are merged at the end, so memory stays bounded. The index is the same whatever
the number of workers. It is written to a temporary directory first and
renamed, so DIR is never half-written.

Options:
  --passages FILE   JSONL passages (required)
  --out DIR         index directory to create or replace (required)
  --k1 X            default k1 of searches (default 0.9)
  --b X             default b of searches (default 0.4)
  --exact-lengths   score with exact document lengths instead of Lucene's
                    one-byte lengths (default off: Lucene-identical scores)
  --workers N       analysis worker threads (default: the cores but one, at most
                    3; 0 analyzes on the main thread)

Example:
  deno task crux index --passages datasets/sample/corpus.jsonl --out outputs/bm25-index
`;

async function run(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      passages: { type: "string" },
      out: { type: "string" },
      k1: { type: "string" },
      b: { type: "string" },
      "exact-lengths": { type: "boolean" },
      workers: { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.passages) throw new UsageError("Missing --passages FILE.jsonl");
  if (!values.out) throw new UsageError("Missing --out DIR");
  // Before any work: not inside an index or a workspace, not a file or a folder of other data.
  await guardOutputs({ outputs: { "--out": { path: values.out, kind: INDEX_FOLDER } } });
  const k1 = numberOption("k1", values.k1, 0.9);
  const b = numberOption("b", values.b, 0.4);
  if (k1 < 0 || b < 0 || b > 1) {
    throw new UsageError(`Invalid BM25 parameters k1=${k1}, b=${b}: need k1 >= 0 and 0 <= b <= 1`);
  }
  // Absent: Bm25Index.write's default.
  const workers = values.workers === undefined
    ? undefined
    : numberOption("workers", values.workers, 0);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 0)) {
    throw new UsageError(`Invalid --workers ${values.workers}: need a whole number >= 0`);
  }
  const t0 = performance.now();
  async function* docs() {
    for await (
      const d of streamCorpus(values.passages!, {
        onDuplicates: (n) =>
          n && io.err(`${values.passages}: ${n} identical repeated passages dropped\n`),
      })
    ) {
      yield { id: d.id, text: d.contents };
    }
  }
  const m = await Bm25Index.write(docs(), values.out, {
    k1,
    b,
    exactLengths: values["exact-lengths"] ?? false,
    analysisWorkers: workers,
    onProgress: (done, total) => {
      if (done === total) io.err(`read ${done} passages from ${values.passages}\n`);
      else if (done % 100_000 === 0) io.err(`indexed ${done} passages\n`);
    },
  });
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  io.out(
    `Indexed ${m.documents} passages (${m.terms} terms, ${m.postings} postings) into ${values.out} in ${secs} s\n`,
  );
  return 0;
}

/** The `crux index` command. */
export const indexCommand: Command = {
  name: "index",
  summary: "Build a BM25 index from a JSONL passage file",
  help: HELP,
  run,
};
