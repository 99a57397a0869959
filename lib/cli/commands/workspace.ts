/**
 * `crux workspace`: `migrate` brings an older workspace to the current schema;
 * `check` reads a workspace read-only and reports what is damaged.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Command, type Io, UsageError } from "../command.ts";
import { runAction } from "../_actions.ts";
import {
  checkWorkspace,
  migrateWorkspace,
  type RewriteProgress,
  SCHEMA_VERSION,
} from "@lib/store/mod.ts";

const MIGRATE_HELP = `Usage: crux workspace migrate --workspace DIR

Brings a workspace made by an older version of the workbench to schema version
${SCHEMA_VERSION}, keeping every row and every cached model call. From version 1 it
adds the provenance tables (run_info, generation_info, rated_items, qrels_info) and fills
them from what the workspace holds; what the old workspace never recorded (the
parameters of its runs, the judge and tau of its qrels, the tokenizer of its token
counts) stays unknown (null). From versions 1 and 2 the old "metrics" table (values
without their judge or relevance source) is kept as "legacy_metrics" and read by
nothing; the measure stage or crux measure stores values again in "measures". From
versions 1 to 4 "ratings" and "rated_items" are keyed by topic as well (a passage may be
rated under several topics), keeping their rows. From versions 1 to 5 the tables of
derived statistics ("statistics") and caveats ("caveats") are added, empty until the
statistics stage runs. To have it all, rebuild the workspace instead.

A workspace file written in an older DuckDB storage format (any workspace created
before the workbench chose its format) is also rewritten in the current one, whose
checkpoints of a large model-call cache cost about a quarter as much; so is a file
whose call cache stores prompts and answers with DuckDB's default string compression
rather than ZSTD (about six times the checkpoint CPU, and a larger file). Every table
is copied with its keys into a new file, which replaces the old one only once complete.
The rewrite reports the rows and tables copied on stderr (every second on a
terminal, every 5 seconds otherwise), and when only the writing of the file remains.
`;

/** A progress line of the storage rewrite. */
export function rewriteLine(p: RewriteProgress): string {
  const rows = (n: number) => n.toLocaleString("en-US");
  const secs = `${(p.elapsedMs / 1000).toFixed(1)} s`;
  switch (p.phase) {
    case "start":
      return `rewriting the storage: ${rows(p.rowsTotal)} rows in ${p.tablesTotal} tables to copy`;
    case "copying": {
      const share = p.rowsTotal ? ` (${(100 * p.rowsRead / p.rowsTotal).toFixed(0)}%)` : "";
      return `  ${rows(p.rowsRead)} of ${rows(p.rowsTotal)} rows read${share}, ` +
        `${p.tables} of ${p.tablesTotal} tables copied, ${secs}`;
    }
    case "finishing":
      return `  every row copied; writing the new file, ${secs}`;
    case "done":
      return `  new file complete in ${secs}`;
  }
}

async function migrate(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { workspace: { type: "string" } } });
  if (!values.workspace) throw new UsageError("--workspace DIR is required");
  const { from, to, storage } = await migrateWorkspace(values.workspace, {
    onProgress: (p) => io.err(`${rewriteLine(p)}\n`),
    intervalMs: io.isTty ? 1000 : 5000,
  });
  io.out(
    from === to
      ? `Workspace ${values.workspace} is already at schema version ${to}\n`
      : `Migrated ${values.workspace} from schema version ${from} to ${to}\n`,
  );
  if (storage) {
    const why = [
      storage.because.includes("format") ? `was ${storage.from}` : "",
      storage.because.includes("compression")
        ? "the call cache's prompts and answers now compressed with ZSTD"
        : "",
    ].filter((w) => w).join("; ");
    io.out(
      `Rewrote ${values.workspace}/workspace.duckdb in storage format ${storage.to} ` +
        `(${why}); every table was copied\n`,
    );
  }
  return 0;
}

const CHECK_HELP = `Usage: crux workspace check --workspace DIR

Checks a workspace without changing it: opens workspace.duckdb read-only, reads
every row of every table (so a truncated or damaged file shows which tables can
still be read), compares its schema version with this workbench's, and reads the
answer journal (llm_journal.jsonl). Prints one line per table and what to do.
Exit status 0 when the workspace is healthy, 1 when a problem was found.

A damaged workspace cannot be repaired in place: restore the folder from a
backup, or move it aside and rebuild it with the commands that made it (crux run
--config ..., crux import ...). Tables that still read can be saved first with
crux export --workspace DIR --table TABLE --out FILE.parquet.
`;

async function check(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { workspace: { type: "string" } } });
  if (!values.workspace) throw new UsageError("--workspace DIR is required");
  const r = await checkWorkspace(values.workspace);
  const lines = [`Workspace ${r.dir}`];
  if (r.bytes !== undefined) lines.push(`  workspace.duckdb: ${r.bytes} bytes`);
  if (r.opened) {
    lines.push(`  schema version: ${r.schemaVersion} (this workbench: ${SCHEMA_VERSION})`);
    if (r.storageVersion) lines.push(`  storage format: ${r.storageVersion}`);
  }
  const width = Math.max(0, ...r.tables.map((t) => t.table.length));
  for (const t of r.tables) {
    lines.push(
      `  ${t.table.padEnd(width)}  ${
        t.problem === undefined
          ? `${t.rows} rows`
          : t.problem === "missing"
          ? "missing"
          : "UNREADABLE"
      }`,
    );
  }
  lines.push(
    `  llm_journal.jsonl: ${r.journal.lines} answer line(s)` +
      (r.journal.unreadable ? `, ${r.journal.unreadable} unreadable` : ""),
  );
  for (const n of r.notes) lines.push(`Note: ${n}`);
  if (r.problems.length === 0) {
    lines.push("OK: every table reads to the end");
    io.out(lines.join("\n") + "\n");
    return 0;
  }
  for (const p of r.problems) lines.push(`Problem: ${p}`);
  const readable = r.tables.filter((t) => t.rows !== undefined).map((t) => t.table);
  if (r.opened && readable.length && readable.length < r.tables.length) {
    lines.push(
      `Readable tables (${readable.join(", ")}) can be saved with ` +
        `\`crux export --workspace ${r.dir} --table TABLE --out TABLE.parquet\` before rebuilding.`,
    );
  }
  io.out(lines.join("\n") + "\n");
  return 1;
}

const WORKSPACE_USAGE = `Usage: crux workspace migrate --workspace DIR
       crux workspace check --workspace DIR
`;

/** The `crux workspace` command. */
export const workspaceCommand: Command = {
  name: "workspace",
  summary: "Workspace maintenance: migrate an older workspace, check a damaged one",
  help: WORKSPACE_USAGE,
  run: (args, io) =>
    runAction(args, io, {
      what: "workspace action",
      actions: { migrate, check },
      help: (action) =>
        action === "migrate" ? MIGRATE_HELP : action === "check" ? CHECK_HELP : WORKSPACE_USAGE,
    }),
};
