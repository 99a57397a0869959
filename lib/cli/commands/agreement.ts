/**
 * `crux agreement`: agreement between annotators' label files of the CRUX human
 * study, and of an LLM judge with their majority.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Command, type Io, UsageError } from "../command.ts";
import { readHumanAnnotations, readJudgments } from "@lib/formats/mod.ts";
import { type HumanAgreement, humanAgreement } from "@lib/metrics/mod.ts";
import { intOption } from "../_options.ts";

const HELP = `crux agreement - how far annotators agree, and how far a judge agrees with them

Usage:
  crux agreement --labels A.jsonl B.jsonl [C.jsonl ...] [--judge RATINGS] [--threshold 3]
                 [--format table|json|csv]

Label files (one per annotator, all of one kind; items are aligned by topic and
sub-question index, never by line number):
  report-level   {"id": topic, "question_based_nugget": {sub-question: span or ""},
                 "answerability": [0|1 per sub-question, in order], "coverage": share};
                 -2 marks an "NA" placeholder slot (the same in every file): not an
                 item, left out of agreement and coverage and counted as na_slots.
  passage-level  {"id": topic, "document": passage id, "relevances": {"0": 0..5 or -1},
                 "rationales": {"0": text}}; -1 = not rated (left out); ratings are
                 answerable at >= --threshold, and graded kappas are reported too.

Options:
  --labels FILE...    Two or more annotator files (space separated, or repeat --labels).
  --judge FILE        Judge ratings in the CRUX judgments layout ({"id","docid","rating"} or
                      {"example_id","pid","rating"}): for report-level labels the item id
                      is "{topic}:report" (or "{topic}:report:{run}", one report per topic);
                      for passage-level labels the passage id.
  --threshold N       Rating counted as answerable, 0-5 (default 3).
  --format FORMAT     table (default), json or csv.
  -h, --help          Show this help.

Reported: items (sub-question labels every annotator gave), Fleiss' kappa, Randolph's
free-marginal kappa, pairwise Cohen's kappa with confusion counts, the majority's positive
rate (an even split is a tie without a majority), and with --judge the judge's precision,
recall, F1 and kappa against the majority and the Spearman and Pearson correlation of
human coverage (mean over annotators) and judge coverage per report. Undefined values
(e.g. every label the same; fewer than 3 reports for a correlation) print as "-" and
JSON null.

Example:
  crux agreement --labels study/a.jsonl study/b.jsonl study/c.jsonl --judge llm_reports.jsonl
`;

const num = (v: number) => (Number.isFinite(v) ? v : null);

/** The JSON shape (snake_case keys, null for undefined values). */
function toJson(r: HumanAgreement, files: string[]): Record<string, unknown> {
  const kappas = (k: { fleissKappa: number; randolphKappa: number; cohenKappa: number[][] }) => ({
    fleiss_kappa: num(k.fleissKappa),
    randolph_kappa: num(k.randolphKappa),
    cohen_kappa: k.cohenKappa.map((row) => row.map(num)),
  });
  const out: Record<string, unknown> = {
    kind: r.kind,
    files,
    items: r.items,
    annotators: r.annotators,
    excluded: r.excluded,
    unrated: r.unrated,
    na_slots: r.naSlots,
    ...kappas(r),
    majority_positive_rate: num(r.majorityPositiveRate),
    ties: r.ties,
    pairs: r.pairs.map((p) => ({ a: files[p.a], b: files[p.b], confusion: p.confusion })),
  };
  if (r.graded) out.graded = kappas(r.graded);
  if (r.judge) {
    const j = r.judge;
    out.judge = {
      items: j.items,
      precision: num(j.precision),
      recall: num(j.recall),
      f1: num(j.f1),
      kappa: num(j.kappa),
      confusion: j.confusion,
      reports: j.reports,
      spearman: num(j.spearman),
      pearson: num(j.pearson),
      unparsed: j.unparsed,
      missing: j.missing,
    };
  }
  return out;
}

/** Flat (statistic, value) rows for the table and CSV formats. */
function rows(json: Record<string, unknown>, prefix = ""): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(json)) {
    if (k === "files" || k === "pairs") continue;
    const name = prefix + k;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      out.push(...rows(v as Record<string, unknown>, name + "."));
    } else if (k === "cohen_kappa") {
      const m = v as (number | null)[][];
      m.forEach((row, a) =>
        row.forEach((x, b) => b > a && out.push([`${name}[${a + 1},${b + 1}]`, fmt(x)]))
      );
    } else {out.push([
        name,
        typeof v === "number" || v === null ? fmt(v as number | null) : String(v),
      ]);}
  }
  return out;
}

function fmt(v: number | null): string {
  if (v === null) return "-";
  return Number.isInteger(v) ? String(v) : v.toFixed(4);
}

async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      labels: { type: "string", multiple: true },
      judge: { type: "string" },
      threshold: { type: "string" },
      format: { type: "string", default: "table" },
    },
  });
  // `--labels a b c`: the files after the first land in positionals.
  const files = [...(values.labels ?? []), ...positionals];
  if (files.length < 2) throw new UsageError("give at least two annotator files with --labels");
  const threshold = intOption("threshold", values.threshold, { min: 0, fallback: 3 })!;
  if (threshold > 5) throw new UsageError(`Option --threshold expects 0-5, got ${threshold}`);
  const format = values.format!;
  if (!["table", "json", "csv"].includes(format)) {
    throw new UsageError(`--format must be table, json or csv, not "${format}"`);
  }
  const annotations = await Promise.all(files.map((f) => readHumanAnnotations(f)));
  const judge = values.judge ? await readJudgments(values.judge) : undefined;
  const result = humanAgreement(annotations, { threshold, judge });
  const json = toJson(result, files);
  if (values.judge) (json.judge as Record<string, unknown>).file = values.judge;
  if (format === "json") {
    io.out(JSON.stringify(json, null, 2) + "\n");
    return 0;
  }
  const table = rows(json).filter(([k]) => k !== "judge.file");
  if (format === "csv") {
    io.out(
      "statistic,value\n" + table.map(([k, v]) => `${k},${v === "-" ? "" : v}`).join("\n") + "\n",
    );
    return 0;
  }
  const width = Math.max(...table.map(([k]) => k.length));
  io.out(`Agreement of ${files.length} annotators (${result.kind}-level labels)\n`);
  files.forEach((f, i) => io.out(`  ${i + 1}: ${f}\n`));
  if (values.judge) io.out(`  judge: ${values.judge} (answerable at rating >= ${threshold})\n`);
  io.out("\n" + table.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n") + "\n");
  if (result.naSlots) {
    io.out(`\n${result.naSlots} NA slots left out (placeholder sub-questions, -2 in every file)\n`);
  }
  for (const p of result.pairs) {
    const [[nn, np], [pn, pp]] = p.confusion;
    io.out(
      `\nconfusion ${p.a + 1} (rows) x ${
        p.b + 1
      } (columns): 0/0 ${nn}  0/1 ${np}  1/0 ${pn}  1/1 ${pp}`,
    );
  }
  io.out("\n");
  return 0;
}

/** The `crux agreement` command. */
export const agreementCommand: Command = {
  name: "agreement",
  summary: "Agreement between annotators' label files, and of a judge with their majority",
  help: HELP,
  run,
};
