/**
 * `crux judge <what>`: model or offline judging steps. Subcommands live in
 * {@link judgeSubcommands}; `answerability` rates (question, context) pairs 0-5.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { dirname, join } from "node:path";
import { guardOutputs, jsonlOf, readTextFile } from "@lib/formats/mod.ts";
import { type Command, type Io, UsageError } from "../command.ts";
import { runAction } from "../_actions.ts";
import {
  type AnswerabilityJudge,
  type AnswerabilityResult,
  lexicalJudge,
  llmAnswerabilityJudge,
  LlmClient,
  openCallCache,
  parseAnswerabilityPairs,
  resolveRoleConfig,
  terminalProgress,
} from "@lib/llm/mod.ts";
import { chooseBackend, clientFlags, clientOverrides, int, readLlmConfig } from "./_llm_flags.ts";
import { judgeReportsCommand } from "./judge_reports.ts";

const ANSWERABILITY_HELP =
  `Usage: crux judge answerability --input PAIRS.jsonl --out OUT.jsonl [options]

Rates how well each context answers its question on 0-5 (CRUX graded answerability).
Input lines: {"id", "question", "context"}. Output lines, one per input line, in input
order: {"id", "rating", "status", "raw"} plus "error" on failed lines:
  id      the input line's id
  rating  0-5, or -1 when the answer was unparsed or the call failed
  status  "ok" (rating read from the answer), "unparsed" (no rating 0-5 in the
          answer) or "failed" (no answer after the retries)
  raw     the model's answer text (lexical backend: the overlap score behind the
          rating); null when the call failed
  error   failed lines only: why the call failed (the API key is never included)
The output file is written only when every pair is done (temp file + rename). Calls are
cached in the workspace, so an interrupted run resumes and a repeated run sends nothing.

Options:
  --input FILE          pairs to judge (required)
  --out FILE            output JSONL (required)
  --backend NAME        openai (default: this command exists to call a judge model) or
                        lexical (offline, no network; model flags then are an error)
  --model M             judge model (default: $CRUX_JUDGE_MODEL or the config)
  --base-url URL        endpoint (default: $CRUX_JUDGE_BASE_URL, $OPENAI_BASE_URL, config)
  --concurrency N       requests in flight (default 8)
  --max-retries N       retries per request on 429/5xx/timeouts (default 4)
  --timeout-ms N        per-request timeout (default 60000)
  --rpm N / --tpm N     request / token per-minute limits (default none)
  --reasks N            re-asks after unparseable output, at temperature 0.2 (default 0)
  --min-ok-share X      exit 1 unless at least this share of pairs got a rating (0-1;
                        default 0: exit 1 only when no pair did, e.g. a wrong key, URL or
                        port). The output file is written either way.
  --templates DIR       folder of replacement prompt templates
  --prompt [NAME=]FILE  a prompt of your own for a step (repeatable), e.g.
                        answerability=paper.txt; checked before any call
  --workspace DIR       workspace holding the call cache (default outputs/default)
  --config FILE         experiment config (JSON) with an "llm" section
  --corpus FILE         lexical backend: JSONL {"contents"|"text"} lines to compute IDF from
                        (default: the contexts being judged)
The API key comes only from $CRUX_JUDGE_API_KEY or $OPENAI_API_KEY.

Example:
  crux judge answerability --input pairs.jsonl --out ratings.jsonl --model llama-3.1-70b
`;

async function readCorpusTexts(path: string): Promise<string[]> {
  const text = await readTextFile(path);
  return text.split("\n").filter((l) => l.trim()).map((l, i) => {
    try {
      const o = JSON.parse(l);
      const t = o.contents ?? o.text;
      if (typeof t !== "string") throw new Error();
      return t;
    } catch {
      throw new UsageError(
        `Cannot read corpus "${path}" line ${i + 1}: expected {"contents"} or {"text"}`,
      );
    }
  });
}

/** Writes text to a temporary file beside `path`, then renames it into place. */
async function writeAtomically(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path) || ".", { recursive: true });
  const tmp = join(dirname(path) || ".", `.${path.split("/").pop()}.${Deno.pid}.tmp`);
  await Deno.writeTextFile(tmp, text);
  await Deno.rename(tmp, path);
}

const answerability: Command = {
  name: "answerability",
  summary: "rate (question, context) pairs 0-5",
  help: ANSWERABILITY_HELP,
  async run(args: string[], io: Io): Promise<number> {
    const { values } = parseArgs({
      args,
      options: {
        input: { type: "string" },
        out: { type: "string" },
        backend: { type: "string" },
        corpus: { type: "string" },
        reasks: { type: "string" },
        "min-ok-share": { type: "string" },
        ...clientFlags,
      },
      strict: true,
    });
    if (!values.input || !values.out) throw new UsageError("--input and --out are required");
    const minOk = values["min-ok-share"] === undefined ? 0 : Number(values["min-ok-share"]);
    if (!(minOk >= 0 && minOk <= 1)) {
      throw new UsageError(
        `--min-ok-share must be a number from 0 to 1, not "${values["min-ok-share"]}"`,
      );
    }
    await guardOutputs({
      inputs: { "--input": values.input, "--corpus": values.corpus, "--config": values.config },
      outputs: {
        "--out": {
          path: values.out,
          kind: jsonlOf("answerability judgments (JSONL)", ["id", "rating", "status"]),
        },
      },
      workspace: values.workspace ?? join("outputs", "default"),
    });
    // Model flags never pass silently: with --backend lexical they are a usage error.
    const backend = chooseBackend(values, {
      model: "openai",
      offline: ["lexical", "offline"],
      fallback: "openai",
    });
    const pairs = parseAnswerabilityPairs(await readTextFile(values.input), {
      file: values.input,
    });
    const onProgress = terminalProgress(io.err, { isTty: io.isTty });
    let results: AnswerabilityResult[];
    let judge: AnswerabilityJudge;
    if (backend === "lexical") {
      judge = lexicalJudge({
        corpus: values.corpus ? await readCorpusTexts(values.corpus) : undefined,
      });
      results = await judge.rate(pairs, { onProgress });
    } else {
      const config = await readLlmConfig(values.config);
      const settings = resolveRoleConfig("judge", { config, overrides: clientOverrides(values) });
      const opened = await openCallCache(values.workspace ?? join("outputs", "default"));
      try {
        const client = new LlmClient({ ...settings, cache: opened.cache });
        const reasks = int("reasks", values.reasks, 0) ?? 0;
        judge = llmAnswerabilityJudge(client, { templatesDir: settings.templatesDir, reasks });
        results = await judge.rate(pairs, { onProgress });
      } finally {
        await opened.close();
      }
    }
    const lines = results.map((r) =>
      JSON.stringify({
        id: r.id,
        rating: r.rating,
        status: r.status,
        raw: r.status === "failed" ? null : r.raw,
        ...(r.status === "failed" ? { error: r.error ?? "unknown error" } : {}),
      })
    );
    await writeAtomically(values.out, lines.join("\n") + (lines.length ? "\n" : ""));
    const count = (s: string) => results.filter((r) => r.status === s).length;
    io.out(
      `Judged ${results.length} pairs with ${judge.name}: ${count("ok")} ok, ${
        count("unparsed")
      } unparsed, ` +
        `${count("failed")} failed -> ${values.out}\n`,
    );
    const share = results.length ? count("ok") / results.length : 1;
    if (results.length && (count("ok") === 0 || share < minOk)) {
      const first = results.find((r) => r.status === "failed")?.error;
      io.err(
        `crux judge answerability: ${count("ok")} of ${results.length} pairs got a rating ` +
          `(${(share * 100).toFixed(1)}%, below the ${
            count("ok") === 0 ? "minimum of one" : `--min-ok-share ${minOk}`
          })${first ? `; first error: ${first}` : ""}\n`,
      );
      return 1;
    }
    return 0;
  },
};

/**
 * Subcommands of `crux judge`, by name. Other steps register here
 * (`judgeSubcommands.reports = reportsCommand`).
 */
export const judgeSubcommands: Record<string, Command> = {
  answerability,
  reports: judgeReportsCommand,
};

function judgeHelp(): string {
  const names = Object.values(judgeSubcommands).map((c) => `  ${c.name.padEnd(14)} ${c.summary}`);
  return `Usage: crux judge <step> [options]\n\nSteps:\n${names.join("\n")}\n\n` +
    "Run `crux judge <step> --help` for a step's options.\n";
}

/**
 * `crux judge`: dispatches to a judging step of {@link judgeSubcommands}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { main } from "@lib/cli/main.ts";
 * const dir = await Deno.makeTempDir();
 * const [p, r] = [`${dir}/p.jsonl`, `${dir}/r.jsonl`];
 * await Deno.writeTextFile(p, '{"id":"a","question":"Who won?","context":"Ann won."}\n');
 * assert.equal(await main(["judge", "answerability", "--input", p, "--out", r, "--backend", "lexical"]), 0);
 * // r.jsonl: one {"id", "rating", "status", "raw"} line per pair ("error" too when failed)
 * ```
 */
export const judgeCommand: Command = {
  name: "judge",
  summary: "judge answerability (and other steps) with a model or offline",
  get help() {
    return judgeHelp();
  },
  run(args: string[], io: Io): Promise<number> {
    const actions = Object.fromEntries(
      Object.entries(judgeSubcommands).map(([name, sub]) => [name, sub.run.bind(sub)]),
    );
    return runAction(args, io, {
      what: "judging step",
      actions,
      help: (step) => (step ? judgeSubcommands[step].help : judgeHelp()),
    });
  },
};
