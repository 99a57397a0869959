/**
 * `crux eval`: evaluates TREC runs with trec_eval-compatible relevance
 * measures (trec_eval 10.0), alpha-nDCG (ndeval; Clarke et al. 2008) and CRUX
 * coverage/density (Ju et al. 2025). Option parsing, input loading and the
 * topic checks live in the private `_eval_*.ts` helpers.
 *
 * @module
 */
import type { Command, Io } from "../command.ts";
import type { EvaluationResult } from "@lib/metrics/evaluate.ts";
import { parseMeasure } from "@lib/metrics/parse_measure.ts";
import { formatMeasure } from "@lib/metrics/format_measure.ts";
import { evaluationNotes, oracleSetNote } from "./_eval_notes.ts";
import { formatEvaluation } from "@lib/metrics/format_evaluation.ts";
import { parseOptions } from "./_eval_options.ts";
import { loadInputs } from "./_eval_inputs.ts";
import { checkSharedTopics, topicSetNote } from "./_eval_topics.ts";
import { evaluateRunFile } from "./_eval_runs.ts";
import { dropMeasure, judgedDepth, judgedFooter } from "./_eval_judged.ts";

const HELP =
  `crux eval - evaluate runs (trec_eval-compatible, alpha-nDCG, CRUX coverage and density)

Usage:
  crux eval --run RUN[=NAME] [--run RUN2[=NAME2] ...] -m "MEASURES" [judgment files] [options]

Judgments (give at least one):
  --qrels FILE        TREC qrels "topic iteration docid grade". With --judgments, CRUX
                      qrels: grade 3 = required passage (the oracle set P*).
  --div-qrels FILE    Diversity (subtopic) qrels for alpha-nDCG: the subtopic id goes in
                      the iteration column and the grade is 0/1, e.g. "q1 2 d7 1".
                      CRUX numbers sub-questions from 1. Without this file, alpha-nDCG
                      uses ratings >= --tau from --judgments as subtopic judgments.
  --judgments FILE    CRUX ratings JSONL ({"example_id","pid","rating"} or
                      {"id","docid","rating"}); -1 ratings count as 0 and are reported.
                      Without --qrels: a passage is relevant (grade 1) if any rating is
                      >= tau, and P* is every judged passage of the topic.
  --aligned-to RUN    Read --judgments as ratings aligned to the ranking of the run file
                      RUN: one JSON document {topic: [[ratings of the 1st ranked
                      passage], [2nd], ...]}, as some releases ship them; passage ids
                      come from RUN, and a count that differs from RUN's is an error
                      naming the topic.
  --corpus FILE       JSONL {"id","contents"|"text"}: texts for Den's token counts.

Options:
  -m, --measures LIST Measures separated by spaces or commas (repeatable), e.g.
                      "P@10 nDCG@10 AP RR alpha_nDCG@20 Cov@oracle Den@oracle".
                      trec_eval names work too (ndcg_cut_10, P_10, map, recip_rank).
                      Den defaults to w=0.5 (CRUX paper); Den(w=1) is the original code's.
                      A parameter written in a measure always wins over --tau and --rel:
                      with --tau 4, Cov(tau=3)@10 still uses tau 3.
  --tau N             Rating counted as answered, 0-5 (default 3), for Cov/Den that do not
                      give tau, alpha-nDCG from ratings and derived qrels.
  --rel N             Minimum grade (integer) counted as relevant, trec_eval -l (default 1),
                      for measures that do not give rel.
  --per-query         Also print per-topic values.
  --complete          Average over every judged topic; topics missing from a run score 0
                      (trec_eval -c). Default: topics in both the run and the judgments.
                      Either way a measure averages over the topics its own judgments
                      cover: P, AP, nDCG... over qrels topics, Cov/Den over rated ones.
  --rewrite FROM=TO   Rewrite topic ids starting with FROM to start with TO instead, in
                      every file (runs, qrels, diversity qrels, judgments, corpus),
                      passage ids "{topic}:..." included; repeatable, the first
                      matching rule wins.
                      For files naming topics differently, e.g. older CRUX files say
                      duc04-testb-N where newer ones say duc04-test-N:
                      --rewrite duc04-testb-=duc04-test-
  --order ORDER       score (trec_eval: score desc, docid desc; default) or rank (ndeval).
                      Ranks are integers from 0; a negative rank is an error.
  --tokenizer NAME    llama3.1 (default) or whitespace, for Den's token counts.
  --format FORMAT     table (default), json or csv. json prints one object
                      {"aggregate": {...}, "topics": N, "perQuery": [...]} (perQuery only
                      with --per-query); several runs give {"runs": [...]}.
  -h, --help          Show this help.

Measure names in the output show the effective parameters: those that differ from
the measure's declared default, plus every parameter --tau or --rel sets to a value
other than its declared default. So with --tau 4, "Cov@10" is printed Cov(tau=4)@10
and "Cov(tau=3)@10" Cov(tau=3)@10; without --tau, both Cov(tau=3)@10 and Cov@10 are
Cov@10. With --rel 2, "P@10" is P(rel=2)@10.

Each run file is one run, named by its first line's tag column, or by NAME with
--run FILE=NAME (needed when two files carry the same tag). judged@k (also a
measure) is the share of a run's top k that has a judgment; when it is below 1 for
the largest cutoff asked (10 when none), the footer says so, since unjudged
passages count as non-relevant and rate 0; when a topic has fewer than k documents
the note counts what the run retrieved. Run files are read in chunks and evaluated
topic by topic; a run not grouped by topic is read whole, with a note. Repeated documents
keep their best-ranked occurrence and are counted. Measures spelled differently but
equal (map, AP; Cov@10 and Cov(tau=4)@10 with --tau 4) are printed once. Diagnostics (topics averaged per measure, qrels and
judgments covering different topics, duplicates, left-out topics, tokenizer) go to
stderr, and under the table as a footer. A run sharing no topic with the judgments a
measure needs is an error.

Example:
  crux eval --run bm25.run --qrels qrels.txt --judgments judge.jsonl -m "nDCG@10 Cov@oracle"
`;

async function run(args: string[], io: Io): Promise<number> {
  const opts = parseOptions(args);
  const { judged, rewrite, notes: inputNotes } = await loadInputs(opts);
  // judged@k is evaluated beside the measures, for the footer note.
  const k = judgedDepth(opts);
  const withJudged = judged.has.qrels;
  const judgedMeasure = parseMeasure(`judged@${k}`);
  const judgedKey = formatMeasure(judgedMeasure, { defaults: { rel: opts.rel, tau: opts.tau } });
  const evalOpts = {
    complete: opts.complete,
    order: opts.order,
    rel: opts.rel,
    tau: opts.tau,
    // Without --per-query only the footer reads per-topic values (judged@k's).
    perTopicMeasures: opts.perQuery ? undefined : [judgedKey],
  };
  const asked = opts.measures.some((m) =>
    formatMeasure(m, { defaults: { rel: opts.rel, tau: opts.tau } }) === judgedKey
  );
  const measures = withJudged && !asked ? [...opts.measures, judgedMeasure] : opts.measures;
  let merged: EvaluationResult | undefined;
  const notes: string[] = [];
  for (const [i, path] of opts.runs.entries()) {
    const evaluated = await evaluateRunFile(
      path,
      judged,
      measures,
      evalOpts,
      opts.runNames[i],
      rewrite,
    );
    // `--run FILE=NAME` names a run (two files tagged alike can then be compared).
    checkSharedTopics(path, evaluated.topics, judged, opts);
    const result = evaluated.result!;
    if (evaluated.note) notes.push(evaluated.note);
    if (!merged) merged = result;
    else {
      if (result.runs.some((r) => merged!.runs.some((m) => m.run === r.run))) {
        throw new Error(
          `Cannot evaluate run "${path}": its name "${
            result.runs[0].run
          }" is already used by another --run file; name each run with --run FILE=NAME`,
        );
      }
      merged.runs.push(...result.runs);
      merged.perTopic.push(...result.perTopic);
      merged.aggregates.push(...result.aggregates);
      merged.skipped.push(...result.skipped);
    }
  }
  const judgedLines = withJudged ? judgedFooter(merged!, judgedKey, k) : [];
  if (withJudged && !asked) dropMeasure(merged!, judgedKey);
  notes.unshift(
    ...inputNotes,
    ...evaluationNotes(merged!, opts, topicSetNote(judged, opts)),
    // Ratings without a selection's qrels: P* is every rated passage; say so.
    ...(opts.judgments && !opts.qrels ? oracleSetNote(opts.measures, opts.tau) : []),
  );
  notes.push(...judgedLines);
  io.out(formatEvaluation(merged!, opts.format, { perQuery: opts.perQuery }));
  // The table carries its notes as a footer; JSON and CSV keep stdout machine-readable.
  if (notes.length) {
    if (opts.format === "table") io.out(notes.join("\n") + "\n");
    else io.err(notes.join("\n") + "\n");
  }
  return 0;
}

/** The `crux eval` command. */
export const evalCommand: Command = {
  name: "eval",
  summary: "Evaluate runs: P, R, AP, nDCG (trec_eval), alpha-nDCG, CRUX Cov/Den",
  help: HELP,
  run,
};
