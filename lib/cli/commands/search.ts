/**
 * `crux search`: runs topics against a BM25 index and writes a TREC run.
 *
 * @module
 */
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { guardOutputs, RUN_FILE } from "../../formats/guard_outputs.ts";
import { readTopicsFile } from "../../formats/crux_topics.ts";
import { writeRun } from "../../formats/trec_run.ts";
import { Bm25Index } from "../../retrieval/bm25_index.ts";
import { bm25Run } from "../../retrieval/bm25_run.ts";
import { type Command, type Io, UsageError } from "../command.ts";
import { numberOption } from "../_options.ts";

const HELP = `Usage: deno task crux search --index DIR --topics FILE.jsonl --out RUN [options]

Searches a BM25 index built by \`crux index\` with every topic of a JSONL file
({"id": ..., "request"|"text"|"query"|"topic": ...} a line, or CRUX topic files)
and writes a TREC run (topic Q0 docid rank score tag), ranked by score
descending with ties by docid descending in byte order (trec_eval's order). The
--k cutoff uses the same order: when documents tie at the k-th score, those with
the largest docids are kept.

Options:
  --index DIR       index directory (required)
  --topics FILE     JSONL topics (required)
  --out RUN         run file to write (required; written atomically)
  --k N             results per topic (default 100)
  --k1 X            BM25 k1 (default: the index's, normally 0.9)
  --b X             BM25 b (default: the index's, normally 0.4)
  --tag NAME        run name in the last column (default bm25)

Example:
  deno task crux search --index outputs/bm25-index --topics datasets/sample/topics.jsonl \\
    --k 100 --out outputs/bm25.run
`;

async function run(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      index: { type: "string" },
      topics: { type: "string" },
      out: { type: "string" },
      k: { type: "string" },
      k1: { type: "string" },
      b: { type: "string" },
      tag: { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.index) throw new UsageError("Missing --index DIR");
  if (!values.topics) throw new UsageError("Missing --topics FILE.jsonl");
  if (!values.out) throw new UsageError("Missing --out RUN");
  await guardOutputs({
    inputs: { "--topics": values.topics },
    inputDirs: { "--index": values.index },
    outputs: { "--out": { path: values.out, kind: RUN_FILE } },
  });
  const k = numberOption("k", values.k, 100);
  if (!Number.isInteger(k) || k < 1) {
    throw new UsageError(`Option --k expects a positive integer, got "${values.k}"`);
  }
  const tag = values.tag ?? "bm25";
  if (!/^\S+$/.test(tag)) {
    throw new UsageError(`Option --tag must be one word without spaces, got "${tag}"`);
  }
  const index = await Bm25Index.load(values.index);
  const k1 = numberOption("k1", values.k1, index.k1);
  const b = numberOption("b", values.b, index.b);
  if (k1 < 0 || b < 0 || b > 1) {
    throw new UsageError(`Invalid BM25 parameters k1=${k1}, b=${b}: need k1 >= 0 and 0 <= b <= 1`);
  }
  const topics = await readTopicsFile(values.topics, {
    onDuplicates: (n) => n && io.err(`${values.topics}: ${n} identical repeated topics dropped\n`),
  });
  io.err(
    `searching ${topics.length} topics in ${index.size} passages (k1=${k1}, b=${b}, k=${k})\n`,
  );
  const t0 = performance.now();
  const queries = topics.map((t) => ({ topicId: t.topicId, text: t.request }));
  const rows = bm25Run(index, queries, { run: tag, k, k1, b });
  const secs = (performance.now() - t0) / 1000;
  const answered = new Set(rows.map((r) => r.topicId));
  const empty = topics.filter((t) => !answered.has(t.topicId)).length;
  if (empty > 0) io.err(`${empty} topic(s) matched no passage and have no rows\n`);
  await Deno.mkdir(dirname(values.out), { recursive: true });
  await writeRun(values.out, rows);
  io.out(
    `Wrote ${rows.length} rows for ${topics.length} topics to ${values.out} ` +
      `(${(topics.length / Math.max(secs, 1e-9)).toFixed(1)} queries/s)\n`,
  );
  return 0;
}

/** The `crux search` command. */
export const searchCommand: Command = {
  name: "search",
  summary: "Search a BM25 index with topics and write a TREC run",
  help: HELP,
  run,
};
