/**
 * `crux workspace migrate`: brings an older workspace to the current schema.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Command, type Io, UsageError } from "../command.ts";
import { runAction } from "../_actions.ts";
import { migrateWorkspace, SCHEMA_VERSION } from "@lib/store/mod.ts";

const MIGRATE_HELP = `Usage: crux workspace migrate --workspace DIR

Brings a workspace made by an older version of the workbench to schema version
${SCHEMA_VERSION}, keeping every row and every cached model call. From version 1 it
adds the provenance tables (run_info, generation_info, rated_items, qrels_info) and fills
them from what the workspace holds; what the old workspace never recorded (the
parameters of its runs, the judge and tau of its qrels, the tokenizer of its token
counts) stays unknown (null). From versions 1 and 2 the old "metrics" table (values
without their judge or relevance source) is kept as "legacy_metrics" and read by
nothing; the measure stage or crux measure stores values again in "measures". To have
it all, rebuild the workspace instead.
`;

async function migrate(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { workspace: { type: "string" } } });
  if (!values.workspace) throw new UsageError("--workspace DIR is required");
  const { from, to } = await migrateWorkspace(values.workspace);
  io.out(
    from === to
      ? `Workspace ${values.workspace} is already at schema version ${to}\n`
      : `Migrated ${values.workspace} from schema version ${from} to ${to}\n`,
  );
  return 0;
}

/** The `crux workspace` command. */
export const workspaceCommand: Command = {
  name: "workspace",
  summary: "Workspace maintenance: migrate an older workspace to the current schema",
  help: `Usage: crux workspace migrate --workspace DIR\n`,
  run: (args, io) =>
    runAction(args, io, {
      what: "workspace action",
      actions: { migrate },
      help: (
        action,
      ) => (action === "migrate"
        ? MIGRATE_HELP
        : "Usage: crux workspace migrate --workspace DIR\n"),
    }),
};
