/**
 * `crux report`: (re)builds an experiment's gallery page from its saved tables and figures.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { buildGallery } from "@lib/report/mod.ts";
import { type Command, type Io, UsageError } from "../command.ts";

const HELP = `crux report - build the gallery page of an experiment's tables and figures

Usage:
  crux report --workspace DIR [--title TEXT] [--open]

Options:
  --workspace DIR   The experiment's output folder (e.g. outputs/demo): the one holding
                    analyses.json, tables/ and figures/, written by crux run and crux demo.
  --title TEXT      Page heading. Default: "Tables and figures of <folder name>".
  --open            Open the page in the default browser (xdg-open or open); the path is
                    printed either way.
  -h, --help        Show this help.

Writes DIR/index.html: every saved table (sortable) and figure with its caption and notes,
and links to the CSV, Markdown, LaTeX, PNG (300 dpi), SVG and Vega-Lite files. The page
needs no network.

Example:
  crux report --workspace outputs/demo --open
`;

/** Options of {@linkcode reportCommand} beyond the arguments (tests replace the opener). */
export interface ReportDeps {
  /** Opens a file in a browser; resolves to false when no opener works. */
  open?: (path: string) => Promise<boolean>;
}

async function openInBrowser(path: string): Promise<boolean> {
  for (const cmd of ["xdg-open", "open"]) {
    try {
      const { success } = await new Deno.Command(cmd, {
        args: [path],
        stdout: "null",
        stderr: "null",
      })
        .output();
      if (success) return true;
    } catch {
      // not installed: try the next opener
    }
  }
  return false;
}

/** Builds the `crux report` command with a given browser opener. */
export function makeReportCommand(deps: ReportDeps = {}): Command {
  const open = deps.open ?? openInBrowser;
  return {
    name: "report",
    summary: "Build the gallery page (index.html) of an experiment's tables and figures",
    help: HELP,
    async run(args: string[], io: Io): Promise<number> {
      const { values } = parseArgs({
        args,
        options: {
          workspace: { type: "string" },
          title: { type: "string" },
          open: { type: "boolean" },
          help: { type: "boolean", short: "h" },
        },
        strict: true,
      });
      if (values.help) {
        io.out(HELP);
        return 0;
      }
      if (!values.workspace) throw new UsageError("missing --workspace");
      const page = await buildGallery(resolve(values.workspace), { title: values.title });
      io.out(`${page}\n`);
      if (values.open && !(await open(page))) {
        io.err(`Cannot open a browser (no xdg-open or open); open ${page} by hand\n`);
      }
      return 0;
    },
  };
}

/** `crux report`: writes `<workspace>/index.html` from the saved analyses and prints its path. */
export const reportCommand: Command = makeReportCommand();
