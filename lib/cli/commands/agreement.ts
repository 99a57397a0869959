/**
 * `crux agreement`: agreement between annotators' label files of the CRUX human
 * study, and of an LLM judge with their majority.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Command, type Io, UsageError } from "../command.ts";
import {
  type HumanAnnotations,
  parseDecompositions,
  parseHumanAnnotations,
  readDecompositions,
  readJudgments,
} from "@lib/formats/mod.ts";
import {
  type HumanAgreement,
  humanAgreement,
  type KappaSet,
  subquestionTypeAgreement,
  type TypeAgreement,
} from "@lib/metrics/mod.ts";
import { intOption } from "../_options.ts";

const HELP = `crux agreement - how far annotators agree, and how far a judge agrees with them

Usage:
  crux agreement --labels A.jsonl B.jsonl [C.jsonl ...] [--judge RATINGS] [--threshold 3]
                 [--format table|json|csv]
  crux agreement --labels A.json B.json [C.json ...] [--judge TYPES.json]

Label files (one per annotator, all of one kind; items are aligned by topic and
sub-question index, never by line number; annotators may label different subsets,
as in a study where each unit goes to some of them):
  report-level   {"id": topic, "question_based_nugget": {sub-question: span or ""},
                 "answerability": [0|1 per sub-question, in order], "coverage": share};
                 -2 marks an "NA" placeholder slot (the same in every file): not an
                 item, left out of agreement and coverage and counted as na_slots.
  passage-level  {"id": topic, "document": passage id, "relevances": {"0": 0..5 or -1},
                 "rationales": {"0": text}}; -1 = not rated (left out); ratings are
                 answerable at >= --threshold, and graded kappas are reported too.
  typed sub-questions  one JSON list per annotator, [{"question", "sub_questions_with_types":
                 [{"sub_question", "type": core|background|follow-up}]}] (or JSONL, one
                 question a line); items are aligned by question and sub-question text
                 (case, spacing and surrounding punctuation ignored); a sub-question
                 without a type is counted (untyped) and left out.
An empty file (an annotator with no finished unit) is reported and left out.

Options:
  --labels FILE...    Two or more annotator files (space separated, or repeat --labels).
  --judge FILE        Judge ratings in the CRUX judgments layout ({"id","docid","rating"} or
                      {"example_id","pid","rating"}): for report-level labels the item id
                      is "{topic}:report" (or "{topic}:report:{run}", one report per topic);
                      for passage-level labels the passage id. For typed sub-questions:
                      the judge's typed decomposition file (accuracy against the majority).
  --threshold N       Rating counted as answerable, 0-5 (default 3).
  --format FORMAT     table (default), json or csv.
  -h, --help          Show this help.

Reported: items (sub-question labels two annotators or more gave; complete_items: those
every annotator gave), Fleiss' kappa and Randolph's free-marginal kappa over the complete
items, pairwise Cohen's kappa with confusion counts over the items each pair shares,
Krippendorff's alpha (nominal, ordinal, interval) over every item labelled twice, the
majority's positive rate (an even split is a tie without a majority), and with --judge the judge's precision,
recall, F1 and kappa against the majority and the Spearman and Pearson correlation of
human coverage (mean over annotators) and judge coverage per report. Undefined values
(e.g. every label the same; fewer than 3 reports for a correlation) print as "-" and
JSON null. For typed sub-questions: Fleiss, Randolph, pairwise Cohen and raw agreement,
Krippendorff's alpha (nominal), the labels per type, each annotator's accuracy against the
majority of the others (a human baseline), and with --judge the judge's accuracy and kappa
against the majority (the unique most frequent type).

Example:
  crux agreement --labels study/a.jsonl study/b.jsonl study/c.jsonl --judge llm_reports.jsonl
`;

const num = (v: number) => (Number.isFinite(v) ? v : null);

const kappas = (k: KappaSet) => ({
  fleiss_kappa: num(k.fleissKappa),
  randolph_kappa: num(k.randolphKappa),
  cohen_kappa: k.cohenKappa.map((row) => row.map(num)),
  krippendorff_alpha: Object.fromEntries(
    Object.entries(k.krippendorffAlpha).map(([level, v]) => [level, num(v)]),
  ),
});

/** The JSON shape (snake_case keys, null for undefined values). */
function toJson(r: HumanAgreement, files: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    kind: r.kind,
    files,
    items: r.items,
    annotators: r.annotators,
    complete_items: r.completeItems,
    single_items: r.singleItems,
    excluded: r.excluded,
    unrated: r.unrated,
    na_slots: r.naSlots,
    ...kappas(r),
    majority_positive_rate: num(r.majorityPositiveRate),
    ties: r.ties,
    pairs: r.pairs.map((p) => ({
      a: files[p.a],
      b: files[p.b],
      items: p.items,
      cohen_kappa: num(r.cohenKappa[p.a][p.b]),
      confusion: p.confusion,
    })),
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

/** The JSON shape of typed sub-question agreement. */
function typesJson(r: TypeAgreement, files: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    kind: r.kind,
    files,
    questions: r.questions,
    items: r.items,
    complete_items: r.completeItems,
    single_items: r.singleItems,
    annotators: r.annotators,
    duplicates: r.duplicates,
    untyped: r.untyped,
    type_counts: r.typeCounts,
    ...kappas(r),
    majority_items: r.majorityItems,
    ties: r.ties,
    annotator_accuracy: {
      ...Object.fromEntries(r.annotatorAccuracy.map((x, i) => [String(i + 1), num(x)])),
      mean: num(r.annotatorAccuracyMean),
    },
    pairs: r.pairs.map((p) => ({
      a: files[p.a],
      b: files[p.b],
      items: p.items,
      agreement: num(p.agreement),
      cohen_kappa: num(r.cohenKappa[p.a][p.b]),
    })),
  };
  if (r.judge) {
    out.judge = {
      items: r.judge.items,
      accuracy: num(r.judge.accuracy),
      kappa: num(r.judge.kappa),
      missing: r.judge.missing,
      confusion: r.judge.confusion,
    };
  }
  return out;
}

/** Flat (statistic, value) rows for the table and CSV formats. */
function rows(json: Record<string, unknown>, prefix = ""): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(json)) {
    if (k === "files" || k === "pairs" || k === "empty_files") continue;
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
  // An annotator with no finished unit exports an empty file: reported, not fatal.
  const texts = await Promise.all(files.map((f) => Deno.readTextFile(f)));
  const empty = files.filter((_, i) => texts[i].trim() === "");
  const kept = files.flatMap((f, i) => (texts[i].trim() === "" ? [] : [{ f, text: texts[i] }]));
  if (kept.length < 2) {
    throw new UsageError(
      `${kept.length} of ${files.length} annotator files hold labels (empty: ${
        empty.join(", ")
      }); give at least two with labels`,
    );
  }
  // Typed decompositions: a JSON list, or objects holding "sub_questions_with_types".
  const typed = kept.map(({ text }) =>
    text.trimStart().startsWith("[") ||
    /"sub_questions_with_types"\s*:/.test(text.slice(0, 100_000))
  );
  if (typed.some(Boolean) && !typed.every(Boolean)) {
    throw new UsageError(
      `give label files of one kind: ${kept[typed.indexOf(true)].f} is a typed sub-question ` +
        `file (a JSON list), ${kept[typed.indexOf(false)].f} a JSONL label file`,
    );
  }
  const names = kept.map((k) => k.f);
  let json: Record<string, unknown>;
  let title: string;
  let notes: string[] = [];
  if (typed[0]) {
    const result = subquestionTypeAgreement(
      kept.map(({ f, text }) => parseDecompositions(text, { file: f, untyped: true })),
      {
        judge: values.judge ? await readDecompositions(values.judge, { untyped: true }) : undefined,
      },
    );
    json = typesJson(result, names);
    title = `Agreement of ${names.length} annotators (sub-question types)`;
    notes = designNotes(result, names);
    for (const p of result.pairs) {
      notes.push(
        `pair ${p.a + 1}-${p.b + 1}: ${p.items} items, raw agreement ${
          fmt(num(p.agreement))
        }, Cohen's kappa ${fmt(num(result.cohenKappa[p.a][p.b]))}`,
      );
    }
    if (result.duplicates) {
      notes.push(`${result.duplicates} sub-questions listed twice under one question: first kept`);
    }
  } else {
    const annotations: HumanAnnotations[] = kept.map(({ f, text }) =>
      parseHumanAnnotations(text, { file: f })
    );
    const judge = values.judge ? await readJudgments(values.judge) : undefined;
    const result = humanAgreement(annotations, { threshold, judge });
    json = toJson(result, names);
    title = `Agreement of ${names.length} annotators (${result.kind}-level labels)`;
    notes = designNotes(result, names);
    if (result.naSlots) {
      notes.push(
        `${result.naSlots} NA slots left out (placeholder sub-questions, -2 in every file)`,
      );
    }
    for (const p of result.pairs) {
      const [[nn, np], [pn, pp]] = p.confusion;
      notes.push(
        `confusion ${p.a + 1} (rows) x ${p.b + 1} (columns), ${p.items} items: ` +
          `0/0 ${nn}  0/1 ${np}  1/0 ${pn}  1/1 ${pp}`,
      );
    }
  }
  if (empty.length) {
    json.empty_files = empty;
    notes.unshift(`Left out, empty (no finished unit): ${empty.join(", ")}`);
  }
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
  io.out(`${title}\n`);
  names.forEach((f, i) => io.out(`  ${i + 1}: ${f}\n`));
  if (values.judge) {
    io.out(
      typed[0]
        ? `  judge: ${values.judge} (against the majority type)\n`
        : `  judge: ${values.judge} (answerable at rating >= ${threshold})\n`,
    );
  }
  io.out("\n" + table.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n") + "\n");
  if (notes.length) io.out("\n" + notes.join("\n") + "\n");
  return 0;
}

/** What an incomplete design leaves undefined, in words. */
function designNotes(
  r: { completeItems: number; items: number; pairs: { a: number; b: number; items: number }[] },
  names: string[],
): string[] {
  const out: string[] = [];
  if (r.completeItems === 0) {
    out.push(
      "No item is labelled by every annotator: Fleiss' and Randolph's kappa are undefined (-); " +
        "Cohen's kappa uses the items each pair shares, Krippendorff's alpha every item " +
        `labelled twice (${r.items})`,
    );
  } else if (r.completeItems < r.items) {
    out.push(
      `Fleiss' and Randolph's kappa use the ${r.completeItems} items every annotator labelled; ` +
        `Cohen's kappa the items each pair shares; Krippendorff's alpha all ${r.items}`,
    );
  }
  for (const p of r.pairs) {
    if (p.items === 0) {
      out.push(`${names[p.a]} and ${names[p.b]} share no item: their Cohen's kappa is undefined`);
    }
  }
  return out;
}

/** The `crux agreement` command. */
export const agreementCommand: Command = {
  name: "agreement",
  summary: "Agreement between annotators' label files, and of a judge with their majority",
  help: HELP,
  run,
};
