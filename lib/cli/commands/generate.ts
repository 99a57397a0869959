/**
 * `crux generate`: writes one report per topic under the CRUX oracle budget,
 * from a retrieval run's contexts, without context, or from the oracle context.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Command, type Io, UsageError } from "../command.ts";
import { chooseBackend, clientFlags, flagRoleClient } from "./_llm_flags.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { terminalProgress } from "@lib/llm/mod.ts";
import { intOption } from "../_options.ts";
import {
  describeGenerationFlags,
  generateReports,
  type GenerationCondition,
} from "@lib/generate/mod.ts";

const HELP =
  `Usage: crux generate --workspace DIR --run NAME (--context RUN | --direct | --oracle) [options]

Generates a report for every topic kept by \`crux construct select\`, under the
CRUX oracle budget: the context is the top-k passages of a retrieval run with
k = |P*| of the topic, and the report may use at most as many Llama-3.1 tokens
as P* has, capped at 2,500 tokens as in the CRUX paper (the prompt states the
length; clipped topics are named on stderr). Reports are stored in the
workspace's generations table under --run; topics already generated are
skipped, and model calls are cached (temperature 0.7, top-p 0.95, recorded).
The human summaries are stored too, as run "oracle-result".

Conditions (exactly one):
  --context RUN     retrieval-augmented: contexts from run RUN in the workspace
  --direct          no retrieval: the request alone
  --oracle          the oracle context P* (the required passages)

Options:
  --workspace DIR   experiment workspace (required)
  --run NAME        name of the generated run (required)
  --backend NAME    openai (any OpenAI-compatible endpoint) or extractive
                    (alias offline: sentences of the context in rank order up
                    to the budget). Default: extractive, so a dataset can be
                    built and tested with no model or network; --model or
                    --base-url select openai. --backend extractive together
                    with model flags is an error.
  --topics IDS      only these topics (comma-separated)
  --budget-cap N    cap on the report length in tokens (default 2500, the
                    CRUX paper's; 0 = no cap)
  --model M, --base-url URL, --concurrency N, --max-retries N, --timeout-ms N,
  --rpm N, --tpm N, --templates DIR, --prompt [NAME=]FILE, --config FILE
                    model settings of the openai backend (defaults from
                    CRUX_GENERATOR_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY)

Examples:
  crux generate --workspace outputs/exp --run bm25-rag --context bm25
  crux generate --workspace outputs/exp --run direct --direct --model llama-3.1-70b
`;

/** The `crux generate` command. */
export const generateCommand: Command = {
  name: "generate",
  summary: "generate reports under the oracle budget (RAG, direct, oracle context)",
  help: HELP,
  async run(args: string[], io: Io): Promise<number> {
    const { values } = parseArgs({
      args,
      options: {
        ...clientFlags,
        run: { type: "string" },
        context: { type: "string" },
        direct: { type: "boolean" },
        oracle: { type: "boolean" },
        backend: { type: "string" },
        topics: { type: "string" },
        "budget-cap": { type: "string" },
      },
      strict: true,
    });
    if (!values.workspace) throw new UsageError("--workspace DIR is required");
    if (!values.run) throw new UsageError("--run NAME is required");
    const chosen =
      [values.context !== undefined, values.direct === true, values.oracle === true].filter(Boolean)
        .length;
    if (chosen !== 1) {
      throw new UsageError("give exactly one of --context RUN, --direct or --oracle");
    }
    const backend = chooseBackend(values, {
      model: "openai",
      offline: ["extractive", "offline"],
      fallback: "extractive",
    });
    if (values.run === "oracle-result") {
      throw new UsageError(`--run "oracle-result" is reserved for the human summaries`);
    }
    const condition: GenerationCondition = values.context !== undefined
      ? "rag"
      : values.direct
      ? "direct"
      : "oracle-context";
    const cap = intOption("budget-cap", values["budget-cap"], { min: 0 });
    const ws = await openWorkspace(values.workspace);
    try {
      const c = await flagRoleClient(ws, "generator", values, backend === "openai");
      const s = await generateReports(ws, {
        run: values.run,
        condition,
        context: values.context,
        client: c?.client,
        templatesDir: c?.templatesDir,
        topics: values.topics?.split(",").map((t) => t.trim()).filter(Boolean),
        ...(cap === undefined ? {} : { budgetCap: cap === 0 ? Infinity : cap }),
        onProgress: terminalProgress(io.err, { isTty: io.isTty }),
        onNote: (m) => io.err(`${m}\n`),
      });
      io.out(
        `generate: ${s.written} ${s.condition} reports by ${s.backend} stored as run "${s.run}", ${s.skipped} already there` +
          `${s.failed ? `, ${s.failed} failed (re-run to retry)` : ""}${
            s.human ? `; ${s.human} human summaries stored as "oracle-result"` : ""
          }${
            describeGenerationFlags(s.flags)
              ? `; flagged: ${describeGenerationFlags(s.flags)} (not usable as reports)`
              : ""
          }\n`,
      );
      return s.failed ? 1 : 0;
    } finally {
      ws.close();
    }
  },
};
