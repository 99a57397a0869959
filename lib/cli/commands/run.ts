/**
 * `crux run`: one experiment from its config file — the construction chain,
 * reranked runs and every CRUX analysis.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Command, UsageError } from "../command.ts";
import {
  loadExperimentConfig,
  RUN_STAGES,
  runCruxExperiment,
  type RunStage,
} from "@lib/experiment/mod.ts";
import { tableText } from "@lib/report/mod.ts";
import { stageProgress } from "@lib/pipeline/stage_progress.ts";

/** The `crux run` command. */
export const runCommand: Command = {
  name: "run",
  summary: "Run an experiment config: construct, retrieve, generate, judge, measure, analyze",
  help: `Usage: deno task crux run --config FILE [--until STAGE] [--experiment NAME]

Runs one experiment from a JSON config (see notebooks/configs/sample-offline.json and
notebooks/configs/online.json): import -> construct -> retrieve -> rerank -> generate
(one RAG report per pipeline under the oracle budget, direct prompting, oracle context)
-> judge reports -> measure -> statistics (correlations, means and deviations across
pipelines, computed from the stored measures and stored for the tables) -> analyze.
Retrieval runs ("retrieve"): BM25 (no "kind"), "kind": "dense" ("embedder": "tfidf"
offline, or "openai": the embedder role), "kind": "fusion" ("runs" listed earlier,
"method": rrf | combsum | combmnz) and "kind": "file" (a TREC run, "path" relative to
the config). Reranking ("rerank", each with "from" and "depth"): "method": "lexical"
(offline stand-in: BM25 over the candidates for the request and its sub-questions),
"mmr" (TF-IDF vectors offline, or the embedder role), and, online only (the reranker
role), "listwise" (sliding windows, RankGPT / RankZephyr), "first-token" (FIRST: windows
ordered by the first label's log-probabilities), "setwise" (heap sort over sets),
"setwise-logprobs", "pointwise" (a 0-3 grade per passage) and "endpoint" (a
cross-encoder /rerank or /score endpoint). A "grid" section declares every first
stage x every reranker at once (docs/reranker_grid.md).
Every stage skips work already in the workspace and model calls are cached, so a
re-run only does what is missing. The analyses write under outputs/<experiment>/:
  tables/   main_table, threshold_table, context_size_table, metric_correlations,
            topic_coverage, report_scores, generation_overview (.csv, .md, .tex)
  figures/  metric_correlations, topic_coverage, report_scores, generation_overview
            (.svg, .png, .vl.json)

Online configs ("backend": "openai") read the endpoint and models from the environment:
OPENAI_BASE_URL, OPENAI_API_KEY, CRUX_GENERATOR_MODEL, CRUX_JUDGE_MODEL, and for dense
"openai" runs and endpoint reranking CRUX_EMBEDDER_MODEL and CRUX_RERANKER_MODEL.

Options:
  --config FILE       experiment config (JSON); relative paths resolve against the
                      current directory
  --until STAGE       last stage: dataset | construct | select | retrieve | rerank | generate |
                      judge | measure | statistics | analyze
                      (default analyze)
  --from STAGE        re-run this stage and every later one even when up to date
  --parallel N        run up to N independent stage instances at once (default 1): runs
                      of one stage, judging of different runs, ... Stages calling models
                      keep together to each role's concurrency and rates. An instance whose
                      writes meet rows another wrote at the same time runs again, alone.
  --allow-failed SHARE  accept stages where at most this share (0..1) of the items
                      failed or were unparsed; default 0: any failed item makes the exit
                      status 1
  --experiment NAME   rename the experiment: workspace outputs/NAME
                      (default: the config's name, or $CRUX_EXPERIMENT when set)
  -h, --help          show this help

Each stage instance (one per retrieval run, generation run, ...) records a fingerprint of
its parameters and of the stages it reads; it runs again only when that fingerprint
changes, so a changed parameter re-runs exactly the dependent stages (each says why) and
an unchanged config does nothing: no model call, no write. A stage instance is complete
only when every item it owns (report, rating, ...) has a result: one with failed or
unparsed items is recorded as incomplete, and the next run retries exactly those items
(the others come from the model call cache) and recomputes what reads them. A value
whose inputs include a failed or unparsed item is not stored (docs/configs.md, "Outcomes, not attempts").

Example:
  deno task crux run --config notebooks/configs/sample-offline.json
`,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: {
        config: { type: "string" },
        until: { type: "string" },
        from: { type: "string" },
        experiment: { type: "string" },
        "allow-failed": { type: "string" },
        parallel: { type: "string" },
      },
    });
    if (!values.config) throw new UsageError("--config FILE is required");
    const until = (values.until ?? "analyze") as RunStage;
    if (!RUN_STAGES.includes(until)) {
      throw new UsageError(
        `--until "${values.until}" is not a stage; use one of ${RUN_STAGES.join(", ")}`,
      );
    }
    const from = values.from as RunStage | undefined;
    if (from !== undefined && !RUN_STAGES.includes(from)) {
      throw new UsageError(
        `--from "${values.from}" is not a stage; use one of ${RUN_STAGES.join(", ")}`,
      );
    }
    const allowed = values["allow-failed"] === undefined ? 0 : Number(values["allow-failed"]);
    if (!(allowed >= 0 && allowed <= 1)) {
      throw new UsageError(
        `--allow-failed "${values["allow-failed"]}" is not a share; give a number from 0 to 1`,
      );
    }
    const parallel = values.parallel === undefined ? 1 : Number(values.parallel);
    if (!Number.isInteger(parallel) || parallel < 1) {
      throw new UsageError(
        `--parallel "${values.parallel}" is not a count; give the number of stage instances to run at once (1 or more)`,
      );
    }
    const experiment = values.experiment ?? Deno.env.get("CRUX_EXPERIMENT");
    const config = await loadExperimentConfig(values.config, { experiment });
    io.err(`run: experiment "${config.name}" in ${config.workspace}\n`);
    // Lines named by stage instance (with --parallel several report at once): each
    // event, calls' progress every few seconds, each wait before a retry at once.
    using progress = stageProgress(io.err);
    const result = await runCruxExperiment(config, {
      until,
      from,
      parallel,
      onEvent: progress.onEvent,
      onProgress: progress.onProgress,
    });
    const analyses = result.analyses?.analyses ?? [];
    for (const a of analyses) {
      if (
        a.table &&
        ["main_table", "threshold_table", "context_size_table", "grid_table"].includes(a.name)
      ) {
        io.out(tableText(a.table) + "\n\n");
      }
    }
    const files = (result.analyses?.saved ?? []).flatMap((s) => [
      ...(s.table ? Object.values(s.table) : []),
      ...(s.figure ? Object.values(s.figure) : []),
    ]);
    const s = result.stages;
    io.out(
      `Stages: ${s.ran.length} ran, ${s.fresh.length} up to date` +
        (s.stopped.length ? `, ${s.stopped.length} not started (--until ${until})` : "") +
        (files.length
          ? `; wrote ${files.length} files under ${config.workspace}/{tables,figures}`
          : "") +
        (s.ran.length === 0 ? "; nothing changed" : "") + "\n",
    );
    if (!s.incomplete.length) return 0;
    const retry = `deno task crux run --config ${values.config}` +
      (values.experiment ? ` --experiment ${values.experiment}` : "");
    let over = 0;
    for (const i of s.incomplete) {
      const share = (i.failed + i.unparsed) / i.items;
      if (share > allowed) over++;
      io.out(
        `Incomplete: ${i.id}: ${i.failed} failed, ${i.unparsed} unparsed of ${i.items} items ` +
          `(${(100 * share).toFixed(1)}%)\n`,
      );
    }
    io.out(
      `${s.incomplete.length} stages have items without a result; their values are left out. ` +
        `Retry exactly those items with: ${retry}\n`,
    );
    if (over === 0) return 0;
    io.err(
      `run: ${over} stages have more failed or unparsed items than --allow-failed ${allowed} accepts\n`,
    );
    return 1;
  },
};
