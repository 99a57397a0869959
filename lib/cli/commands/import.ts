/**
 * `crux import <source>`: loads a dataset into an experiment workspace.
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  type ImportCounts,
  importCrux,
  importDuc,
  importMultiNews,
  importQrels,
  importRun,
  importSample,
  openWorkspace,
  type Workspace,
} from "@lib/store/mod.ts";
import { type Command, type Io, UsageError } from "../command.ts";
import { intOption } from "../_options.ts";

const SOURCES: Record<string, string> = {
  sample: `crux import sample --workspace DIR [--dir DIR]
  The bundled sample (topics.jsonl, documents.jsonl, corpus.jsonl, questions.json,
  judgments.jsonl). --dir defaults to datasets/sample.`,
  "multi-news": `crux import multi-news --workspace DIR (--src F --tgt F | --jsonl F | --parquet F)
                  [--split test] [--limit N]
  Multi-News examples: .src/.tgt line pairs (articles joined by ||||| or
  story_separator_special_tag), JSONL or Parquet with document/summary. Topics are
  multi_news-{split}-{n}, n = position in the file (as in the CRUX release).`,
  duc: `crux import duc --workspace DIR --docs DIR --models DIR [--ids cluster|numbered]
  DUC 2004 task 2 from your licensed copy: --docs holds one folder per cluster
  (d30001t/), --models the human summaries (D30001.M.100.T.A). Topic ids are
  duc04-{folder} (default) or duc04-test-{n} in sorted folder order (--ids numbered).`,
  crux: `crux import crux --workspace DIR [--corpus F] [--topics F] [--subquestions F]
                  [--judgments F [--aligned-to RUN]] [--reports F ...] [--qrels F ...]
                  [--rewrite FROM=TO ...] [--judge NAME]
  CRUX release files, any subset. --rewrite maps topic id prefixes, e.g.
  --rewrite duc04-testb-=duc04-test-. Ratings are stored under --judge (default
  import:<judgments file name>), each under its (topic, passage): a passage rated
  under two topics keeps both topics' ratings. With --aligned-to RUN, --judgments
  is one JSON document {topic: [[r1..rn], ...]} holding one rating list per passage
  RUN ranks for the topic, in rank order (read as crux eval --aligned-to reads it);
  import RUN itself with crux import run to measure it.
  --reports reads report runs of the human-study release (JSONL with qid, type,
  docids, report, response): each report is stored as a generation of run rag-TYPE
  (the report of context run TYPE; import that run's TREC file with crux import run
  --run TYPE) or, for type oracle, of run oracle-context, with its context passages;
  a topic without a reference summary gets the file's "report". The human-study
  labels name these reports {type}_{qid} (e.g. bm25_duc04-testb-3 is rag-bm25 on
  topic duc04-testb-3) and the oracle context's report by the topic id alone.
  Each qrels file is stored under its file name without extension. Qrels are
  "topic iteration docid grade": plain qrels have 0 in iteration;
  diversity qrels have the sub-question number (from 1) there and grade 0/1; CRUX
  *_qrels_pr.txt grades are 3 required, 2 neutral, 1 redundant.`,
  run: `crux import run --workspace DIR --file F [--run NAME] [--rewrite FROM=TO ...]
  A TREC run "topic Q0 docid rank score tag"; replaces stored rows of the same run.
  --rewrite maps topic id prefixes as crux import crux --rewrite does: give the run
  the same rewrites as the ratings it is measured with (each row's topic, and each
  passage id "{topic}:..." under its own topic's rewrite).`,
  qrels: `crux import qrels --workspace DIR --file F [--name NAME]
  A qrels file, stored under --name (default: file name without extension).`,
};

const HELP = `crux import - load a dataset into an experiment workspace

Usage:
  crux import <source> --workspace DIR [options]

Sources:
${Object.values(SOURCES).map((s) => "  " + s.replaceAll("\n", "\n  ")).join("\n\n")}

Every import is idempotent (re-running replaces rows with the same keys) and runs in
one transaction: a malformed file changes nothing. While it runs, stderr shows
progress as records read from the input files ("ratings: 6 records read"); nothing is
stored until the transaction commits. After the commit, the rows stored per table
(a record repeating a key counts once) are printed on stdout as "table<TAB>count"
lines. On failure nothing is printed on stdout, stderr lists the problems (input
files as file:line: field: message) and ends with "Nothing was stored".

Example:
  crux import sample --workspace outputs/demo
`;

const OPTIONS = {
  workspace: { type: "string" },
  dir: { type: "string" },
  src: { type: "string" },
  tgt: { type: "string" },
  jsonl: { type: "string" },
  parquet: { type: "string" },
  split: { type: "string" },
  limit: { type: "string" },
  docs: { type: "string" },
  models: { type: "string" },
  ids: { type: "string" },
  corpus: { type: "string" },
  topics: { type: "string" },
  subquestions: { type: "string" },
  judgments: { type: "string" },
  "aligned-to": { type: "string" },
  reports: { type: "string", multiple: true },
  qrels: { type: "string", multiple: true },
  rewrite: { type: "string", multiple: true },
  judge: { type: "string" },
  file: { type: "string" },
  run: { type: "string" },
  name: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>["values"];

function need(values: Values, source: string, ...names: (keyof Values)[]): void {
  const missing = names.filter((n) => values[n] === undefined);
  if (missing.length) {
    throw new UsageError(`import ${source} needs ${missing.map((n) => `--${n}`).join(", ")}`);
  }
}

function checkRewrites(values: Values): void {
  for (const spec of values.rewrite ?? []) {
    if (spec.indexOf("=") <= 0) {
      throw new UsageError(`--rewrite expects FROM=TO, got "${spec}"`);
    }
  }
}

async function runImport(source: string, v: Values, ws: Workspace, io: Io): Promise<ImportCounts> {
  const onProgress = (m: string) => io.err(`${m}\n`);
  switch (source) {
    case "sample":
      return await importSample(ws, v.dir ?? "datasets/sample", { onProgress });
    case "multi-news": {
      const given = [v.jsonl, v.parquet, v.src ?? v.tgt].filter((x) => x !== undefined).length;
      if (given !== 1 || (v.src === undefined) !== (v.tgt === undefined)) {
        throw new UsageError(
          "import multi-news needs exactly one of --jsonl, --parquet, or --src with --tgt",
        );
      }
      const sources = { jsonl: v.jsonl, parquet: v.parquet, src: v.src, tgt: v.tgt };
      return await importMultiNews(ws, sources, {
        split: v.split,
        limit: intOption("limit", v.limit, { min: 0 }),
        onProgress,
      });
    }
    case "duc": {
      need(v, source, "docs", "models");
      if (v.ids !== undefined && v.ids !== "cluster" && v.ids !== "numbered") {
        throw new UsageError(`--ids expects cluster or numbered, got "${v.ids}"`);
      }
      return await importDuc(ws, { docs: v.docs!, models: v.models! }, { ids: v.ids, onProgress });
    }
    case "crux": {
      const files = {
        corpus: v.corpus,
        topics: v.topics,
        subquestions: v.subquestions,
        judgments: v.judgments,
      };
      if (v["aligned-to"] !== undefined && v.judgments === undefined) {
        throw new UsageError(
          "--aligned-to RUN reads the --judgments file as ratings aligned to RUN",
        );
      }
      if (Object.values(files).every((f) => f === undefined) && !v.qrels && !v.reports) {
        throw new UsageError(
          "import crux needs at least one of --corpus, --topics, --subquestions, --judgments, --reports, --qrels",
        );
      }
      checkRewrites(v);
      return await importCrux(
        ws,
        {
          ...files,
          alignedTo: v["aligned-to"],
          reports: v.reports,
          qrels: v.qrels,
          rewrite: v.rewrite,
          judge: v.judge,
        },
        { onProgress },
      );
    }
    case "run":
      need(v, source, "file");
      checkRewrites(v);
      return {
        runs: await importRun(ws, v.file!, {
          run: v.run,
          rewrite: v.rewrite,
          onDuplicates: (n) =>
            n && onProgress(`${v.file}: ${n} repeated documents dropped (best-ranked kept)`),
        }),
      };
    case "qrels":
      need(v, source, "file");
      return {
        qrels: await importQrels(ws, v.file!, {
          name: v.name,
          onDuplicates: (n) => n && onProgress(`${v.file}: ${n} identical repeated lines dropped`),
        }),
      };
    default:
      throw new UsageError(
        `unknown source "${source}"; choose one of ${Object.keys(SOURCES).join(", ")}`,
      );
  }
}

/** `crux import`: sample, multi-news, duc, crux, run and qrels sources. */
export const importCommand: Command = {
  name: "import",
  summary:
    "Load a dataset (sample, Multi-News, DUC 2004, CRUX release, runs, qrels) into a workspace",
  help: HELP,
  async run(args: string[], io: Io): Promise<number> {
    const parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
    const { values, positionals } = parsed;
    const [source, ...extra] = positionals;
    if (values.help) {
      io.out(source && SOURCES[source] ? SOURCES[source] + "\n" : HELP);
      return 0;
    }
    if (!source) throw new UsageError("name a source: " + Object.keys(SOURCES).join(", "));
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    if (!SOURCES[source]) {
      throw new UsageError(
        `unknown source "${source}"; choose one of ${Object.keys(SOURCES).join(", ")}`,
      );
    }
    if (!values.workspace) throw new UsageError("--workspace DIR is required (e.g. outputs/demo)");
    const ws = await openWorkspace(values.workspace);
    try {
      const started = performance.now();
      let counts: ImportCounts;
      try {
        counts = await runImport(source, values, ws, io);
      } catch (error) {
        if (error instanceof UsageError) throw error;
        // Every importer writes in one transaction, rolled back on any error.
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(
          `${message}\nNothing was stored: the import into ${values.workspace} was rolled back.`,
          { cause: error },
        );
      }
      // Only now, after the commit, are the counts rows actually stored.
      for (const [table, n] of Object.entries(counts)) io.out(`${table}\t${n}\n`);
      const stored = Object.entries(counts).map(([table, n]) => `${table} ${n}`).join(", ");
      io.err(
        `Imported ${source} into ${values.workspace} in ${
          ((performance.now() - started) / 1000).toFixed(1)
        } s; rows stored: ${stored || "none"}\n`,
      );
      return 0;
    } finally {
      ws.close();
    }
  },
};
