/**
 * `crux keypoints`: key point recall (Long2RAG) from files: extract key points
 * from questions with documents, merge them, judge responses, score. `score`
 * works from a key point file and an entailment file alone.
 *
 * @module
 */
import type { Command } from "../command.ts";
import { runAction } from "../_actions.ts";
import { extract, keypointsJudge, merge } from "./_keypoints_make.ts";
import { respond } from "./_keypoints_respond.ts";
import { score } from "./_keypoints_score.ts";

const MODEL =
  `  --backend offline|openai  offline (default) or the model of the role (--model, --base-url,
                            --config, --templates, --prompt, ...; calls cached in --workspace, default
                            outputs/default)
  --reasks N                re-asks after unparseable model output (default 2)`;

const HELPS: Record<string, string> = {
  extract: `Usage: crux keypoints extract --questions FILE --out FILE [--rounds N] [--per-round N]

Extracts the key points of every (question, document) pair of a questions file
  {"qid", "question", "run_id"?, "documents": [{"doc_id", "text"}], "response"?}
(documents of a question are pooled over its lines) into a key point file with ids o1, o2, ...
Each supporting span is checked against its document (exact, then white space and quote
normalised); a key point whose span is not found is kept, flagged in "span_status" and counted.
Offline: the sentences sharing most terms with the question (offline-salient), their own text
as span. Model: the keypoint_extract template; further rounds ask for points missed so far.

Options:
  --rounds N      extraction rounds (default 2: one, then one asking for points missed)
  --per-round N   offline: key points per document and round (default 3)
${MODEL}
`,
  merge: `Usage: crux keypoints merge --keypoints FILE --out FILE [--threshold T] [--questions FILE]

Merges near-duplicate key points of each question across its documents. Each merged point
(k1, k2, ...) lists its originals in "merged_from"; every original is in exactly one merged
point. Offline: greedy Jaccard similarity of analysed terms >= T (offline-lexical). Model: the
keypoint_merge template (needs --questions); a map that misses or repeats a point is re-asked,
then the question keeps its points unmerged and the failure is reported.

Options:
  --threshold T   offline similarity threshold in (0, 1] (default 0.6)
${MODEL}
`,
  judge:
    `Usage: crux keypoints judge --keypoints FILE --responses FILE --out FILE [--statements FILE]
                           [--three-way] [--contradiction] [--threshold T]

Judges whether each response (lines of a questions file with "run_id" and "response") entails
each key point of its question: yes / no / neutral with a reason, as in Long2RAG (no = does
not entail; only yes counts as covered); --contradiction adds the separate label contradicts
(templates keypoint_entail_contradiction, keypoint_support_contradiction); --three-way writes
supported (yes) / omitted (no, neutral) / contradicted (contradicts) instead. Answers that cannot be read are
left unlabelled (not covered) and reported. --statements also checks each sentence of every
response against the documents on its line (KPP): {"qid", "run_id", "statements": [{"text",
"label", "supported"}]}. Offline: lexical overlap with a negation heuristic (offline-lexical).

Options:
  --threshold T   offline: share of key point terms in one sentence (default 0.6)
  --contradiction offer contradicts as a fourth label (offline: a negated match)
${MODEL}
`,
  respond: `Usage: crux keypoints respond --questions FILE --out FILE --run NAME [--max-tokens N]

Writes a response per question with the key point protocol: all documents joined by lines of
===== and an instruction to use as many of their important points as possible (template
keypoint_response; generator role). Offline: the documents' sentences in order up to the
budget (offline-extractive). The output is a questions file with "run_id" and "response".

Options:
  --max-tokens N  response cap in tokens (default: none for a model, as in Long2RAG, whose
                  GPT-4o answers average about 940 tokens; offline: 940 Llama-3.1 tokens)
${MODEL}
`,
  score: `Usage: crux keypoints score --keypoints FILE --entailments FILE [--statements FILE]
                           [--per-query] [--format table|json|csv] [--workspace DIR [--judge NAME]]

Key point scores of responses:
  key points   {"qid", "keypoints": [{"id", "text", "doc_id", "spans", "merged_from"}]}
  entailments  {"qid", "run_id", "labels": [{"keypoint_id", "label", "reason"}]}
  statements   {"qid", "run_id", "statements": [{"text", "label", "supported"}]} (optional)
Labels are yes|no|neutral (Long2RAG: no = does not entail; only yes counts as covered),
contradicts (the separate contradiction label) or supported|omitted|contradicted
(supported counts as covered). KPR = mean over questions of covered key points / key points;
kp_supported, kp_omitted, kp_contradicted = the label shares (yes = supported, no =
contradicted, neutral or no label = omitted), averaged over questions; KPP = supported
statements / statements (from --statements, null without), KPF their harmonic mean, both per
question then averaged. Questions without key points are left out of KPR and reported. A
question whose key points have no entailment line for a run scores 0 for that run and is
listed; a label naming an unknown key point is an error with file and line.

Options:
  --per-query     also per-question values
  --format F      table (default), json or csv. json for one run:
                    {"aggregate": {"KPR", "KPP", "KPF", "kp_supported", "kp_omitted",
                    "kp_contradicted"}, "topics": N, "perQuery": [{"qid", "KPR", ...}]}
                  several runs: {"runs": [{"run_id", "aggregate", "topics", ...}]}
  --workspace DIR also store the values in the workspace's measure table (method keypoints,
                  run = run_id, source file:<key point file name>; the rows of the pipeline's
                  measure step), so \`crux compare\` shows them beside the other methods; an
                  earlier scoring's rows under the same judge and source are replaced
  --judge NAME    judge column of those rows (default file:<entailment file name>)
`,
};

const HELP = `Usage: crux keypoints <action> [options]

Key point recall (Long2RAG) from files:
  extract   key points of each (question, document) with checked verbatim spans
  merge     merge near-duplicates across a question's documents (with the merge map)
  judge     entailment of each key point by each response (yes / no / neutral)
  respond   responses with the documents concatenated (the method's generation protocol)
  score     KPR, KPP, KPF and the supported / omitted / contradicted rates

Run \`crux keypoints <action> --help\` for an action's options.
`;

/** The `crux keypoints` command. */
export const keypointsCommand: Command = {
  name: "keypoints",
  summary: "Key point recall (Long2RAG): extract, merge, judge and score key points",
  help: HELP,
  run: (args, io) =>
    runAction(args, io, {
      what: "keypoints action",
      actions: { extract, merge, judge: keypointsJudge, respond, score },
      help: (action) => (action && HELPS[action]) || HELP,
    }),
};
