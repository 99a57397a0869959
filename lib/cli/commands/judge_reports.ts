/**
 * `crux judge reports`: rates generated reports against the answerable
 * sub-questions and stores coverage and density of reports and contexts.
 * A sub-subcommand of `crux judge` (plug into `judgeSubcommands`).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Command, type Io, UsageError } from "../command.ts";
import { chooseBackend, clientFlags, flagRoleClient } from "./_llm_flags.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { terminalProgress } from "@lib/llm/mod.ts";
import { judgeReports } from "@lib/judge/mod.ts";
import { roleJudge } from "@lib/construct/mod.ts";

const HELP = `Usage: crux judge reports --workspace DIR [--run NAME] [options]

Rates every generated report (or those of --run) against each answerable
sub-question of its topic with the CRUX answerability protocol (0-5; item id
{topic}:report:{run}; same cache as construction, so re-runs make no calls),
then stores per topic and overall (topic "all") in the measure table "measures",
under the generated run's name, method crux, by this judge:
  Cov, Den(w=W)  source report: coverage and density of the report (density uses
                 the report's own Llama-3.1 token count against P*)
  Cov, Den(w=W)  source context: the same for its retrieval context, from the
                 pre-judged passage ratings (no new calls)

Options:
  --workspace DIR     experiment workspace (required)
  --run NAME          only this generated run (default: all)
  --backend NAME      openai (any OpenAI-compatible endpoint) or lexical (alias
                      offline: word-overlap ratings). Default: lexical, so the
                      pipeline runs with no model or network; --model or
                      --base-url select openai. --backend lexical together with
                      model flags is an error.
  --judge-unjudged    rate context passages that have no rating (e.g. other
                      topics' passages) instead of counting them 0
  --context-judge J   judge whose passage ratings score contexts (default: the only
                      passage judge, else the judge of the selection, else the judge
                      with the most passage ratings)
  --tau N             answerability threshold (default 3)
  --w X               density exponent (default 0.5, as in the CRUX paper's tables)
  --model M, --base-url URL, --concurrency N, --max-retries N, --timeout-ms N,
  --rpm N, --tpm N, --templates DIR, --prompt [NAME=]FILE, --config FILE
                      model settings of the openai backend (defaults from
                      CRUX_JUDGE_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY)

Example:
  crux judge reports --workspace outputs/exp --run bm25-rag --model llama-3.1-70b
`;

/** The `crux judge reports` sub-subcommand. */
export const judgeReportsCommand: Command = {
  name: "reports",
  summary: "rate generated reports; coverage and density of reports and contexts",
  help: HELP,
  async run(args: string[], io: Io): Promise<number> {
    const { values } = parseArgs({
      args,
      options: {
        ...clientFlags,
        run: { type: "string" },
        backend: { type: "string" },
        "judge-unjudged": { type: "boolean" },
        "context-judge": { type: "string" },
        tau: { type: "string" },
        w: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    if (!values.workspace) throw new UsageError("--workspace DIR is required");
    const backend = chooseBackend(values, {
      model: "openai",
      offline: ["lexical", "offline"],
      fallback: "lexical",
    });
    const tau = values.tau === undefined ? 3 : Number(values.tau);
    const w = values.w === undefined ? 0.5 : Number(values.w);
    if (!Number.isInteger(tau) || tau < 0 || tau > 5) {
      throw new UsageError(`--tau must be an integer 0-5, found "${values.tau}"`);
    }
    if (!(w > 0)) throw new UsageError(`--w must be a positive number, found "${values.w}"`);
    const ws = await openWorkspace(values.workspace);
    try {
      const judge = roleJudge(ws, await flagRoleClient(ws, "judge", values, backend === "openai"));
      const r = await judgeReports(ws, {
        judge,
        run: values.run,
        contextJudge: values["context-judge"],
        judgeUnjudged: values["judge-unjudged"] === true,
        tau,
        w,
        onProgress: terminalProgress(io.err, { isTty: io.isTty }),
        onNote: (m) => io.err(`${m}\n`),
      });
      const f = (x: number) => (Number.isNaN(x) ? "-" : x.toFixed(4));
      io.out("run\ttopics\tCov_report\tDen_report\tCov_context\tDen_context\n");
      for (const run of r.runs) {
        io.out(
          `${run.run}\t${run.topics}\t${f(run.coverage)}\t${f(run.density)}\t${
            f(run.contextCoverage)
          }\t${f(run.contextDensity)}\n`,
        );
      }
      io.err(`judge reports: ${r.written} new ratings by ${judge.name}\n`);
      if (!r.failed && !r.unparsed) return 0;
      io.err(
        `judge reports: ${r.failed} failed and ${r.unparsed} unparsed of ${r.asked} ratings; ` +
          `the reports without all their ratings have no Cov or Den, and their runs no mean. ` +
          `Retry exactly those ratings with: deno task crux judge reports ${args.join(" ")}\n`,
      );
      return 1;
    } finally {
      ws.close();
    }
  },
};
