/** An LLM judge's ratings against annotators' majority labels; private to `@lib/metrics`. */
import type { Judgment } from "@lib/formats/mod.ts";
import type { AlignedItem } from "./_align_annotations.ts";
import { answerabilityAgreement } from "./answerability_agreement.ts";
import { pearson } from "./pearson.ts";
import { spearman } from "./spearman.ts";

/** The judge against the annotators' majority. NaN marks an undefined value. */
export interface JudgeAgreement {
  /** Items compared: aligned items with a majority and a judge rating. */
  items: number;
  precision: number;
  recall: number;
  f1: number;
  kappa: number;
  confusion: { tp: number; fp: number; fn: number; tn: number };
  /** Reports (or passages) whose coverage is correlated. */
  reports: number;
  /** Correlation of human coverage (mean over annotators) and judge coverage per report. */
  spearman: number;
  pearson: number;
  /** Judge ratings of -1 (unparseable), counted as 0. */
  unparsed: number;
  /** Reports or passages with labels but no judge rating (left out). */
  missing: number;
}

/**
 * Judge ratings by item key: the topic (reports), `{run}_{topic}` (a run's report,
 * as the release names it) or topic and passage. Two reports of one topic are an
 * error only when a label file names the report by its topic alone.
 */
function judgeIndex(
  judge: readonly Judgment[],
  kind: "report" | "passage",
): (key: string) => Judgment | undefined {
  const out = new Map<string, Judgment>();
  const twice = new Map<string, [Judgment, Judgment]>();
  for (const j of judge) {
    const prefix = `${j.topicId}:report`;
    const isReport = j.itemId === prefix || j.itemId.startsWith(prefix + ":");
    if (kind === "report" && !isReport) continue;
    if (kind === "report" && j.itemId.startsWith(prefix + ":")) {
      out.set(`${j.itemId.slice(prefix.length + 1)}_${j.topicId}`, j);
    }
    const key = kind === "report" ? j.topicId : `${j.topicId}\0${j.itemId}`;
    const earlier = out.get(key);
    if (earlier && !twice.has(key)) twice.set(key, [earlier, j]);
    else out.set(key, j);
  }
  return (key) => {
    const both = twice.get(key);
    if (both) {
      throw new RangeError(
        `Judge ratings hold two reports of topic "${both[0].topicId}" ("${both[0].itemId}" and "${
          both[1].itemId
        }"); keep only the report the annotators labelled`,
      );
    }
    return out.get(key);
  };
}

/** Compares judge ratings (>= threshold = answerable) with the majority labels of `items`. */
export function judgeAgreement(
  items: readonly AlignedItem[],
  majority: readonly (boolean | undefined)[],
  judge: readonly Judgment[],
  opts: { threshold: number; kind: "report" | "passage" },
): JudgeAgreement {
  const index = judgeIndex(judge, opts.kind);
  const ratings: number[] = [];
  const human: boolean[] = [];
  // Counts, not running means: equal coverages stay exactly equal, so they tie in Spearman.
  const groups = new Map<string, { human: number; labels: number; judge: number; items: number }>();
  const missingKeys = new Set<string>();
  let unparsed = 0;
  items.forEach((it, i) => {
    const key = opts.kind === "report" ? it.topicId : `${it.topicId}\0${it.itemId}`;
    const j = index(key);
    if (!j) return void missingKeys.add(key);
    const r = j.ratings[it.question];
    if (r === undefined) {
      throw new RangeError(
        `Judge rated ${j.ratings.length} sub-questions of "${j.itemId}", but the annotators ` +
          `labelled sub-question ${it.question + 1}`,
      );
    }
    if (r === -1) unparsed++;
    const rating = Math.max(r, 0);
    let g = groups.get(key);
    if (!g) groups.set(key, g = { human: 0, labels: 0, judge: 0, items: 0 });
    g.human += it.labels.filter((l) =>
      (opts.kind === "report" ? l : l >= opts.threshold ? 1 : 0) === 1
    ).length;
    g.labels += it.labels.length;
    g.judge += rating >= opts.threshold ? 1 : 0;
    g.items++;
    if (majority[i] === undefined) return;
    ratings.push(rating);
    human.push(majority[i]!);
  });
  const a = ratings.length > 0 ? answerabilityAgreement(ratings, human, { tau: opts.threshold }) : {
    precision: NaN,
    recall: NaN,
    f1: NaN,
    kappa: NaN,
    truePositives: 0,
    falsePositives: 0,
    falseNegatives: 0,
    trueNegatives: 0,
  };
  const hc = [...groups.values()].map((g) => g.human / g.labels);
  const jc = [...groups.values()].map((g) => g.judge / g.items);
  const corr = (f: (x: number[], y: number[]) => number) => (hc.length < 3 ? NaN : f(hc, jc));
  return {
    items: ratings.length,
    precision: a.precision,
    recall: a.recall,
    f1: a.f1,
    kappa: a.kappa,
    confusion: {
      tp: a.truePositives,
      fp: a.falsePositives,
      fn: a.falseNegatives,
      tn: a.trueNegatives,
    },
    reports: hc.length,
    spearman: corr(spearman),
    pearson: corr(pearson),
    unparsed,
    missing: missingKeys.size,
  };
}
