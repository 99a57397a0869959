import assert from "node:assert/strict";
import { type HumanAnnotations, type Judgment, parseHumanAnnotations } from "@lib/formats/mod.ts";
import { humanAgreement } from "./human_agreement.ts";
import { seededRandom } from "./seeded_random.ts";

const close = (a: number, b: number, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

/** A report-level file: topic -> 0/1 labels. */
function reports(file: string, labels: Record<string, number[]>): HumanAnnotations {
  const text = Object.entries(labels)
    .map(([id, a]) => JSON.stringify({ id, answerability: a }))
    .join("\n");
  return parseHumanAnnotations(text, { file });
}

/** A passage-level file: passage -> ratings of sub-question 0. */
function passages(file: string, ratings: number[]): HumanAnnotations {
  const text = ratings
    .map((r, i) => JSON.stringify({ id: "t", document: `t:0#${i}`, relevances: { "0": r } }))
    .join("\n");
  return parseHumanAnnotations(text, { file });
}

Deno.test("two annotators: Cohen's textbook example, Scott/Fleiss and free-marginal kappa", () => {
  // 50 labels: yes/yes 20, yes/no 5, no/yes 10, no/no 15 -> p_o 0.7, Cohen p_e 0.5.
  const a = [...Array(25).fill(1), ...Array(25).fill(0)];
  const b = [...Array(20).fill(1), ...Array(5).fill(0), ...Array(10).fill(1), ...Array(15).fill(0)];
  const r = humanAgreement([reports("a", { t: a }), reports("b", { t: b })]);
  assert.equal(r.items, 50);
  close(r.cohenKappa[0][1], 0.4);
  close(r.cohenKappa[1][0], 0.4);
  // Fleiss with two raters pools the marginals: p(yes) = 55/100, p_e = 0.505.
  close(r.fleissKappa, (0.7 - 0.505) / (1 - 0.505));
  close(r.randolphKappa, (0.7 - 0.5) / 0.5);
  assert.deepEqual(r.pairs, [{ a: 0, b: 1, items: 50, confusion: [[15, 10], [5, 20]] }]);
  // Two annotators: 35 labels agree (20 positive), 15 split evenly.
  assert.equal(r.ties, 15);
  close(r.majorityPositiveRate, 20 / 35);
});

Deno.test("Fleiss' 1971 example (14 raters, 5 categories) on graded passage labels", () => {
  const counts = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];
  // Rater k's label of item i: categories 1..5 handed out in order.
  const labels = counts.map((row) => row.flatMap((c, j) => Array(c).fill(j + 1) as number[]));
  const files = Array.from({ length: 14 }, (_, k) => passages(`r${k}`, labels.map((l) => l[k])));
  const r = humanAgreement(files);
  assert.equal(r.kind, "passage");
  assert.equal(r.items, 10);
  close(r.graded!.fleissKappa, 0.20993070442195522);
  // Free-marginal over the six categories 0-5 a rater may choose.
  close(r.graded!.randolphKappa, (0.37802197802197807 - 1 / 6) / (1 - 1 / 6));
});

Deno.test("a free-marginal case: three raters, Randolph's kappa with chance 1/2", () => {
  const r = humanAgreement([
    reports("a", { t: [1, 0, 0] }),
    reports("b", { t: [1, 0, 1] }),
    reports("c", { t: [1, 0, 1] }),
  ]);
  // P-bar = (1 + 1 + 1/3) / 3 = 7/9.
  close(r.randolphKappa, (7 / 9 - 0.5) / 0.5);
  close(r.fleissKappa, (7 / 9 - 41 / 81) / (1 - 41 / 81));
  assert.equal(r.ties, 0);
  close(r.majorityPositiveRate, 2 / 3);
});

Deno.test("items are aligned by topic and index; files listing other topics are counted", () => {
  const r = humanAgreement([
    reports("a", { t1: [1, 0], t2: [1, 1], t3: [0, 0] }),
    reports("b", { t2: [1, 0], t1: [1, 0] }),
  ]);
  assert.equal(r.items, 4);
  assert.equal(r.excluded, 1);
  assert.deepEqual(r.pairs[0].confusion, [[1, 0], [1, 2]]);
  assert.throws(
    () => humanAgreement([reports("a", { t: [1, 0] }), reports("b", { t: [1] })]),
    /Topic "t" has 2 labels in a:1 but 1 in b:1/,
  );
  assert.throws(() => humanAgreement([reports("a", { t: [1] })]), /at least 2 annotator files/);
  assert.throws(
    () => humanAgreement([reports("a", { t: [1] }), reports("b", { u: [1] })]),
    /no item is labelled by two annotators/,
  );
});

Deno.test("the judge against the majority: precision, recall and coverage correlation", () => {
  const a = reports("a", { t1: [1, 1, 0, 0], t2: [1, 0, 0, 0], t3: [1, 1, 1, 0] });
  const b = reports("b", { t1: [1, 0, 0, 0], t2: [1, 0, 1, 0], t3: [1, 1, 1, 1] });
  const c = reports("c", { t1: [1, 1, 0, 1], t2: [0, 0, 0, 0], t3: [1, 1, 0, 0] });
  // Majorities: t1 [1,1,0,0], t2 [1,0,0,0], t3 [1,1,1,0].
  const judge: Judgment[] = [
    { topicId: "t1", itemId: "t1:report", ratings: [5, 2, 4, -1] },
    { topicId: "t2", itemId: "t2:report:bm25", ratings: [3, 0, 0, 0] },
    { topicId: "t3", itemId: "t3:report", ratings: [4, 4, 1, 0] },
    { topicId: "t3", itemId: "t3:0#1", ratings: [5, 5, 5, 5] }, // a passage: ignored
  ];
  const r = humanAgreement([a, b, c], { judge });
  const j = r.judge!;
  // Judge >= 3: t1 [1,0,1,0], t2 [1,0,0,0], t3 [1,1,0,0] -> tp 4, fp 1, fn 2, tn 5.
  assert.deepEqual(j.confusion, { tp: 4, fp: 1, fn: 2, tn: 5 });
  close(j.precision, 4 / 5);
  close(j.recall, 4 / 6);
  assert.equal(j.unparsed, 1);
  assert.equal(j.reports, 3);
  // Human coverage per report (mean over annotators): t1 6/12, t2 3/12, t3 9/12;
  // judge coverage: 2/4, 1/4, 2/4. Spearman of ranks [2,1,3] vs [2.5,1,2.5].
  const hx = [6 / 12, 3 / 12, 9 / 12], jx = [0.5, 0.25, 0.5];
  const mx = hx.reduce((s, v) => s + v) / 3, my = jx.reduce((s, v) => s + v) / 3;
  const cov = hx.reduce((s, v, i) => s + (v - mx) * (jx[i] - my), 0);
  const sx = Math.sqrt(hx.reduce((s, v) => s + (v - mx) ** 2, 0));
  const sy = Math.sqrt(jx.reduce((s, v) => s + (v - my) ** 2, 0));
  close(j.pearson, cov / (sx * sy));
  close(j.spearman, (0 * 0.5 + -1 * -1 + 1 * 0.5) / (Math.sqrt(2) * Math.sqrt(1.5)));
  assert.throws(
    () =>
      humanAgreement([a, b], {
        judge: [...judge, { topicId: "t1", itemId: "t1:report:x", ratings: [1, 1, 1, 1] }],
      }),
    /two reports of topic "t1"/,
  );
});

/** Independent computation for the randomized case: textbook formulas written out directly. */
function reference(labels: number[][]) {
  // labels[k][item] for annotator k, binary.
  const n = labels.length, items = labels[0].length;
  let pBar = 0, pos = 0;
  for (let i = 0; i < items; i++) {
    const ones = labels.reduce((s, l) => s + l[i], 0);
    pBar += (ones * (ones - 1) + (n - ones) * (n - ones - 1)) / (n * (n - 1));
    pos += ones;
  }
  pBar /= items;
  const p1 = pos / (n * items);
  const pe = p1 * p1 + (1 - p1) * (1 - p1);
  const cohen = (a: number[], b: number[]) => {
    const po = a.filter((v, i) => v === b[i]).length / a.length;
    const pa = a.reduce((s, v) => s + v, 0) / a.length,
      pb = b.reduce((s, v) => s + v, 0) / b.length;
    const e = pa * pb + (1 - pa) * (1 - pb);
    return (po - e) / (1 - e);
  };
  let majorityPos = 0;
  for (let i = 0; i < items; i++) if (labels.reduce((s, l) => s + l[i], 0) * 2 > n) majorityPos++;
  return {
    fleiss: (pBar - pe) / (1 - pe),
    randolph: (pBar - 0.5) / 0.5,
    cohen01: cohen(labels[0], labels[1]),
    cohen12: cohen(labels[1], labels[2]),
    majority: majorityPos / items,
  };
}

Deno.test("three annotators, 30 reports, 15 sub-questions equal the textbook formulas", () => {
  const rnd = seededRandom(2024);
  const truth = Array.from({ length: 30 * 15 }, () => (rnd() < 0.45 ? 1 : 0));
  const flat = [0.1, 0.2, 0.3].map((noise) => truth.map((t) => (rnd() < noise ? 1 - t : t)));
  const files = flat.map((l, k) => {
    const byTopic: Record<string, number[]> = {};
    for (let t = 0; t < 30; t++) byTopic[`duc-${t}`] = l.slice(t * 15, t * 15 + 15);
    return reports(`annotator${k}`, byTopic);
  });
  const r = humanAgreement(files);
  const ref = reference(flat);
  assert.equal(r.items, 450);
  close(r.fleissKappa, ref.fleiss);
  close(r.randolphKappa, ref.randolph);
  close(r.cohenKappa[0][1], ref.cohen01);
  close(r.cohenKappa[1][2], ref.cohen12);
  close(r.majorityPositiveRate, ref.majority);
  assert.ok(r.fleissKappa > 0.1 && r.fleissKappa < 0.9, `kappa ${r.fleissKappa}`);
});

Deno.test("reports named {run}_{topic} meet the judge's {topic}:report:{run}; an incomplete design", () => {
  // a labels both reports of t1, b only rag's, c only direct's.
  const a = reports("a", { rag_t1: [1, 0], direct_t1: [0, 0] });
  const b = reports("b", { rag_t1: [1, 1] });
  const c = reports("c", { direct_t1: [0, 1] });
  const judge: Judgment[] = [
    { topicId: "t1", itemId: "t1:report:rag", ratings: [4, 1] },
    { topicId: "t1", itemId: "t1:report:direct", ratings: [0, 5] },
  ];
  const r = humanAgreement([a, b, c], { judge });
  assert.equal(r.items, 4);
  assert.equal(r.completeItems, 0);
  assert.ok(Number.isNaN(r.fleissKappa));
  assert.deepEqual(r.pairs.map((p) => p.items), [2, 2, 0]);
  // Majorities of two: rag [1, tie], direct [0, tie]: two items with a majority,
  // judge >= 3: rag q1 yes (majority yes), direct q1 no (majority no).
  assert.equal(r.ties, 2);
  assert.equal(r.judge!.items, 2);
  assert.deepEqual(r.judge!.confusion, { tp: 1, fp: 0, fn: 0, tn: 1 });
  assert.equal(r.judge!.missing, 0);
  // The topic alone is ambiguous when the judge holds two of its reports.
  assert.throws(
    () => humanAgreement([reports("a", { t1: [1, 0] }), reports("b", { t1: [1, 1] })], { judge }),
    /two reports of topic "t1"/,
  );
});
