/**
 * `crux serve`: the explorer web app over one workspace.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { checkPublicUrl, isLoopback, serveWorkspace } from "@lib/serve/mod.ts";
import { type Command, type Io, UsageError } from "../command.ts";
import { intOption } from "../_options.ts";

const HELP = `Usage: deno task crux serve --workspace DIR [--port N] [--host ADDR --allow-remote]
                      [--public-url URL] [--annotate]

Serves a local web app to explore an experiment: the experiment page (runs with
their provenance, pipeline stages, the gallery's tables and figures), a page per
topic (sub-questions with answerability and type, P* with qrels grades, each
run's top passages with a heat row of ratings per sub-question, judged@k), a page
per report (every method's verdicts; spans located by the coverage judge
highlighted) and a compare page (two reports side by side with the difference
of every measured value). Every page has a stable URL:

  /                               the experiment
  /topic/<topic>?k=10             a topic
  /report/<run>/<topic>           a report
  /compare/<topic>?a=<run>&b=<run> two reports of a topic

The workspace is opened read-only, and only while a page is being answered, so
crux run can write to it while the explorer is open (a page asked during a write
says so and can be reloaded). Stop with Ctrl-C.

A request must name this server in its Host header: 127.0.0.1, localhost and
[::1] with the port, the address given to --host (with --host 0.0.0.0, every
address of this machine), and the origin of --public-url. Any other Host gets
421, which keeps pages from being read through a name that merely points here.

With --annotate the server shows the annotation pages instead (the explorer would
show annotators the run names): /annotate/<token> is an annotator's queue, from the
links crux annotate create prints. Every page's answers are saved together the
moment they are posted (the page moves on only once they are committed). The
workspace is opened as for the explorer, read-write only while answers are being
saved, so crux run or crux annotate export can use it while annotators work (an
answer posted while another program writes gets "busy, send again"); answers are accepted only from the server's own pages (Origin or
Referer checked against the same list). For annotators on other machines, bind
with --host 0.0.0.0 --allow-remote and give --public-url with the address they
use, e.g. http://lab-server.example:8765.

Options:
  --workspace DIR   the experiment workspace (required)
  --port N          port (default 8765; 0 picks a free one)
  --host ADDR       address to bind (default 127.0.0.1, loopback only)
  --allow-remote    allow an address other than loopback (anyone reaching it can read
                    the workspace; a warning is printed)
  --public-url URL  the origin others reach this server by (scheme, host, port),
                    accepted as Host and Origin besides loopback
  --annotate        serve the annotation pages (read-write while saving answers)
`;

async function run(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      workspace: { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      "allow-remote": { type: "boolean" },
      annotate: { type: "boolean" },
      "public-url": { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.workspace) throw new UsageError("Missing --workspace DIR");
  const port = intOption("port", values.port, { min: 0, fallback: 8765 })!;
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const hostname = values.host ?? "127.0.0.1";
  if (!isLoopback(hostname)) {
    if (!values["allow-remote"]) {
      throw new UsageError(
        `--host ${hostname} is not a loopback address; add --allow-remote to serve the ` +
          "workspace to anyone who can reach it",
      );
    }
    io.err(
      `Warning: serving on ${hostname}: anyone who can reach this address can read the workspace\n`,
    );
  }
  let publicUrl: string | undefined;
  if (values["public-url"] !== undefined) {
    try {
      publicUrl = checkPublicUrl(values["public-url"]);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    const server = await serveWorkspace(values.workspace, {
      port,
      hostname,
      allowRemote: values["allow-remote"] ?? false,
      signal: stop.signal,
      annotate: values.annotate ?? false,
      publicUrl,
      onListen: (url) => {
        const base = publicUrl ?? url;
        io.err(
          values.annotate
            ? `Annotation pages of ${values.workspace} at ${base}/annotate/<token> (Ctrl-C stops)\n`
            : `Explorer of ${values.workspace} at ${base}/ (Ctrl-C stops)\n`,
        );
      },
    });
    await server.finished;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
  return 0;
}

/** The `crux serve` command. */
export const serveCommand: Command = {
  name: "serve",
  summary: "Explore an experiment in the browser: topics, rankings, reports, comparisons",
  help: HELP,
  run,
};
