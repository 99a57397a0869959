/**
 * `crux keypoints`: key point recall (Long2RAG). `score` works from a key point
 * file and an entailment file alone.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Command, type Io, UsageError } from "../command.ts";
import { runAction } from "../_actions.ts";
import { InputError, readEntailments, readKeyPoints } from "@lib/formats/mod.ts";
import { keyPointRates, keyPointScores } from "@lib/metrics/mod.ts";

const SCORE_HELP = `Usage: crux keypoints score --keypoints FILE --entailments FILE [--per-query]
                           [--format table|json|csv]

Key point recall of responses:
  key points   {"qid", "keypoints": [{"id", "text", "doc_id", "spans", "merged_from"}]}
  entailments  {"qid", "run_id", "labels": [{"keypoint_id", "label", "reason"}]}
Labels are yes|no|neutral (only yes counts as covered) or the three-way
supported|omitted|contradicted (supported counts as covered; the three rates are
reported). KPR = mean over questions of covered key points / key points; questions
without key points are left out. A question whose key points have no entailment line
for a run scores 0 for that run and is listed; a key point without a label counts as not
covered and is counted; a label naming an unknown key point is an error with file and
line. KPP and KPF need the response's own statements checked against the documents and
are null here.

Options:
  --keypoints FILE    key point file (required)
  --entailments FILE  entailment file (required)
  --per-query         also per-question values
  --format FORMAT     table (default), json or csv. json for one run:
                        {"aggregate": {"KPR", "KPP", "KPF", "supported", "omitted",
                        "contradicted"}, "topics": N, "perQuery": [{"qid", "KPR", ...}]}
                      several runs: {"runs": [{"run_id", "aggregate", "topics", ...}]}
`;

const num = (v: number) => (Number.isFinite(v) ? v : null);

async function score(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      keypoints: { type: "string" },
      entailments: { type: "string" },
      "per-query": { type: "boolean" },
      format: { type: "string" },
    },
  });
  if (!values.keypoints || !values.entailments) {
    throw new UsageError("--keypoints FILE and --entailments FILE are required");
  }
  const format = values.format ?? "table";
  if (!["table", "json", "csv"].includes(format)) {
    throw new UsageError(`--format must be table, json or csv, not "${format}"`);
  }
  const points = await readKeyPoints(values.keypoints);
  const entailments = await readEntailments(values.entailments);
  const ids = new Map(points.map((q) => [q.qid, new Set(q.keypoints.map((k) => k.id))]));
  const problems = [];
  for (const e of entailments) {
    const known = ids.get(e.qid);
    const unknown = e.labels.find((l) => !known?.has(l.keypointId));
    if (unknown) {
      problems.push({
        file: values.entailments,
        line: e.line,
        field: "labels",
        message: known
          ? `key point "${unknown.keypointId}" is not a key point of question "${e.qid}" in ${values.keypoints}`
          : `question "${e.qid}" has no key points in ${values.keypoints}`,
      });
    }
  }
  if (problems.length) throw new InputError(problems);
  const runs = [...new Set(entailments.map((e) => e.runId))];
  const results = runs.map((runId) => {
    const byQid = new Map(entailments.filter((e) => e.runId === runId).map((e) => [e.qid, e]));
    const missingLines: string[] = [];
    let unlabelled = 0;
    const perQuery = points.filter((q) => q.keypoints.length > 0).map((q) => {
      const e = byQid.get(q.qid);
      if (!e) missingLines.push(q.qid);
      const label = new Map((e?.labels ?? []).map((l) => [l.keypointId, l.label]));
      unlabelled += e ? q.keypoints.filter((k) => !label.has(k.id)).length : 0;
      const labels = q.keypoints.map((k) => label.get(k.id));
      const entailed = labels.map((l) => l === "yes" || l === "supported");
      const threeWay = labels.some((l) =>
        l === "supported" || l === "omitted" || l === "contradicted"
      );
      const rates = threeWay
        ? keyPointRates(
          labels.map((l) => (l === "supported" || l === "contradicted" ? l : "omitted")),
        )
        : undefined;
      return { qid: q.qid, entailed, rates };
    });
    const kp = keyPointScores(perQuery.map((p) => ({ entailed: p.entailed })));
    const withRates = perQuery.filter((p) => p.rates);
    const rate = (k: "supported" | "omitted" | "contradicted") =>
      withRates.length ? withRates.reduce((s, p) => s + p.rates![k], 0) / withRates.length : NaN;
    return {
      runId,
      topics: perQuery.length,
      missingLines,
      unlabelled,
      aggregate: {
        KPR: num(kp.kpr),
        KPP: num(kp.kpp),
        KPF: num(kp.kpf),
        supported: num(rate("supported")),
        omitted: num(rate("omitted")),
        contradicted: num(rate("contradicted")),
      },
      perQuery: perQuery.map((p) => ({
        qid: p.qid,
        KPR: p.entailed.filter(Boolean).length / p.entailed.length,
        supported: p.rates ? p.rates.supported : null,
        omitted: p.rates ? p.rates.omitted : null,
        contradicted: p.rates ? p.rates.contradicted : null,
      })),
    };
  });
  for (const r of results) {
    if (r.missingLines.length) {
      io.err(
        `# ${r.runId}: no entailment line for ${r.missingLines.length} question(s) with key points ` +
          `(scored 0): ${r.missingLines.join(", ")}\n`,
      );
    }
    if (r.unlabelled) {
      io.err(`# ${r.runId}: ${r.unlabelled} key points without a label (not covered)\n`);
    }
  }
  const perQuery = values["per-query"] ?? false;
  if (format === "json") {
    const one = (r: (typeof results)[number]) => ({
      aggregate: r.aggregate,
      topics: r.topics,
      ...(perQuery ? { perQuery: r.perQuery } : {}),
    });
    const json = results.length === 1
      ? one(results[0])
      : { runs: results.map((r) => ({ run_id: r.runId, ...one(r) })) };
    io.out(JSON.stringify(json, null, 2) + "\n");
    return 0;
  }
  const cols = ["KPR", "supported", "omitted", "contradicted"] as const;
  const fmt = (v: number | null) => (v === null ? "-" : v.toFixed(4));
  if (format === "csv") {
    io.out(`run_id,qid,${cols.join(",")}\n`);
    for (const r of results) {
      for (const p of perQuery ? r.perQuery : []) {
        io.out(`${r.runId},${p.qid},${cols.map((c) => p[c] ?? "").join(",")}\n`);
      }
      io.out(`${r.runId},all,${cols.map((c) => r.aggregate[c] ?? "").join(",")}\n`);
    }
    return 0;
  }
  const width = Math.max(6, ...results.map((r) => r.runId.length));
  io.out(`${"run".padEnd(width)}     KPR  supported  omitted  contradicted  topics\n`);
  for (const r of results) {
    for (const p of perQuery ? r.perQuery : []) {
      io.out(
        `${`  ${p.qid}`.padEnd(width)}  ${fmt(p.KPR)}  ${fmt(p.supported).padStart(9)}  ${
          fmt(p.omitted).padStart(7)
        }  ${fmt(p.contradicted).padStart(12)}\n`,
      );
    }
    const a = r.aggregate;
    io.out(
      `${r.runId.padEnd(width)}  ${fmt(a.KPR)}  ${fmt(a.supported).padStart(9)}  ${
        fmt(a.omitted).padStart(7)
      }  ${fmt(a.contradicted).padStart(12)}  ${String(r.topics).padStart(6)}\n`,
    );
  }
  return 0;
}

const HELP = `Usage: crux keypoints <action> [options]

Actions:
  score   key point recall (KPR) and the supported / omitted / contradicted rates

Run \`crux keypoints score --help\` for its options.
`;

/** The `crux keypoints` command. */
export const keypointsCommand: Command = {
  name: "keypoints",
  summary: "Key point recall (Long2RAG): score responses from key point and entailment files",
  help: HELP,
  run: (args, io) =>
    runAction(args, io, {
      what: "keypoints action",
      actions: { score },
      help: (action) => (action === "score" ? SCORE_HELP : HELP),
    }),
};
