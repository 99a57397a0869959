/**
 * `crux export`: writes a workspace table to Parquet, CSV, JSONL or TREC files.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { extname } from "node:path";
import {
  CSV_FILE,
  guardOutputs,
  JSONL_FILE,
  type OutputKind,
  PARQUET_FILE,
  QRELS_FILE,
  RUN_FILE,
} from "@lib/formats/mod.ts";
import { type ExportFormat, openWorkspace, TABLES } from "@lib/store/mod.ts";
import { type Command, type Io, UsageError } from "../command.ts";

const FORMATS: readonly ExportFormat[] = ["parquet", "csv", "jsonl", "trec"];
const BY_EXTENSION: Record<string, ExportFormat> = {
  ".parquet": "parquet",
  ".csv": "csv",
  ".jsonl": "jsonl",
  ".run": "trec",
  ".qrels": "trec",
};

const HELP = `crux export - write a workspace table to a file

Usage:
  crux export --workspace DIR --table TABLE --out FILE [--format FORMAT] [options]

Options:
  --workspace DIR   The experiment workspace (opened read-only).
  --table TABLE     One of ${Object.keys(TABLES).join(", ")}.
  --out FILE        Destination; written atomically (its folder must exist).
  --format FORMAT   parquet, csv, jsonl or trec. Default: from the extension of --out
                    (.parquet, .csv, .jsonl; .run and .qrels mean trec).
  --run NAME        With --table runs --format trec: only this run (default all runs).
  --name NAME       With --table qrels --format trec: the qrels set to write (needed
                    when the workspace holds several).
  -h, --help        Show this help.

Parquet, CSV and JSONL keep every column under its camelCase field name (topicId,
docId, ...). TREC writes runs as "topic Q0 docid rank score run" and qrels as
"topic subtopic docid grade" (subtopic 0 for plain qrels).

Example:
  crux export --workspace outputs/demo --table measures --out outputs/demo/measures.csv
`;

/** `crux export`: one table to Parquet/CSV/JSONL, or runs/qrels to TREC text. */
export const exportCommand: Command = {
  name: "export",
  summary: "Write a workspace table to Parquet, CSV, JSONL or TREC run/qrels",
  help: HELP,
  async run(args: string[], io: Io): Promise<number> {
    const { values } = parseArgs({
      args,
      options: {
        workspace: { type: "string" },
        table: { type: "string" },
        format: { type: "string" },
        out: { type: "string" },
        run: { type: "string" },
        name: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    const missing = (["workspace", "table", "out"] as const).filter((k) => !values[k]);
    if (missing.length) throw new UsageError(`missing ${missing.map((k) => `--${k}`).join(", ")}`);
    if (!(values.table! in TABLES)) {
      throw new UsageError(
        `unknown table "${values.table}"; choose one of ${Object.keys(TABLES).join(", ")}`,
      );
    }
    const format = (values.format ?? BY_EXTENSION[extname(values.out!).toLowerCase()]) as
      | ExportFormat
      | undefined;
    if (!format || !FORMATS.includes(format)) {
      throw new UsageError(
        values.format
          ? `unknown format "${values.format}"; choose one of ${FORMATS.join(", ")}`
          : `cannot tell the format from "${values.out}"; add --format ${FORMATS.join("|")}`,
      );
    }
    if (format === "trec" && values.table !== "runs" && values.table !== "qrels") {
      throw new UsageError(
        `--format trec works for the runs and qrels tables, not "${values.table}"`,
      );
    }
    const kind: OutputKind = format === "parquet"
      ? PARQUET_FILE
      : format === "csv"
      ? CSV_FILE
      : format === "jsonl"
      ? JSONL_FILE
      : values.table === "runs"
      ? RUN_FILE
      : QRELS_FILE;
    await guardOutputs({
      outputs: { "--out": { path: values.out, kind } },
      workspace: values.workspace,
    });
    const ws = await openWorkspace(values.workspace!, { readOnly: true });
    try {
      if (values.table === "qrels" && format === "trec" && values.name === undefined) {
        const names = await ws.qrelsNames();
        if (names.length > 1) {
          throw new UsageError(
            `The workspace holds ${names.length} qrels sets (${names.join(", ")}); ` +
              `choose one with --name, e.g. --name ${names[0]}`,
          );
        }
      }
      const rows = await ws.exportTable(values.table!, values.out!, format, {
        run: values.run,
        name: values.name,
      });
      io.out(`${values.out}\t${rows}\n`);
      io.err(`Exported ${rows} rows of ${values.table} as ${format}\n`);
      return 0;
    } finally {
      ws.close();
    }
  },
};
