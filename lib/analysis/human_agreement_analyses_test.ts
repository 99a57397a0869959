import assert from "node:assert/strict";
import { type HumanAnnotations, parseHumanAnnotations } from "@lib/formats/mod.ts";
import { openWorkspace, writeMeasures } from "@lib/store/mod.ts";
import { humanAgreementAnalyses } from "./human_agreement_analyses.ts";
import { humanAgreementJudge } from "./human_agreement_judge.ts";
import { humanAgreementRows } from "./human_agreement_rows.ts";

function reports(file: string, labels: Record<string, number[]>): HumanAnnotations {
  const text = Object.entries(labels)
    .map(([id, a]) => JSON.stringify({ id, question_based_nugget: {}, answerability: a }))
    .join("\n");
  return parseHumanAnnotations(text, { file });
}

const close = (a: number, b: number, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

/** A workspace holding the rows of a study, for the view to read. */
async function stored(
  files: HumanAnnotations[],
  judge?: { topicId: string; itemId: string; ratings: number[] }[],
) {
  const ws = await openWorkspace(await Deno.makeTempDir());
  await writeMeasures(
    ws,
    humanAgreementRows(files, {
      run: "oracle-result",
      ...(judge ? { judge, judgeName: "lexical" } : {}),
    }),
  );
  return ws;
}

Deno.test("humanAgreementAnalyses: kappas, alpha, confusion and per-topic coverage read from the stored rows", async () => {
  const a = reports("a", { t1: [1, 1, 0, 0], t2: [1, 0, 0, 0], t3: [1, 1, 1, 0] });
  const b = reports("b", { t1: [1, 0, 0, 0], t2: [1, 0, 1, 0], t3: [1, 1, 1, 1] });
  const c = reports("c", { t1: [1, 1, 0, 1], t2: [0, 0, 0, 0], t3: [1, 1, 0, 0] });
  const judge = [
    { topicId: "t1", itemId: "t1:report", ratings: [5, 2, 4, 0] },
    { topicId: "t2", itemId: "t2:report", ratings: [3, 0, 0, 0] },
    { topicId: "t3", itemId: "t3:report", ratings: [4, 4, 1, 0] },
  ];
  const ws = await stored([a, b, c], judge);
  try {
    const [stats, confusion, topics] = await humanAgreementAnalyses(ws);
    const value = (label: string) =>
      stats.table!.rows.find((r) => r.label === label)!.values.value as number;
    // Positives per item (t1..t3, q1..q4): 3 2 0 1 | 2 0 1 0 | 3 3 2 1: six unanimous, six
    // two-to-one; P-bar = (6 + 6/3)/12 = 2/3; 18 of 36 labels positive, so P_e = 1/2 for
    // Fleiss and Randolph alike: (2/3 - 1/2) / (1/2) = 1/3.
    close(value("Randolph's free-marginal kappa"), 1 / 3);
    close(value("Fleiss' kappa"), 1 / 3);
    // Krippendorff (nominal): D_o = 6 split items x 2 / 36 = 1/3; D_e = 2*18*18/(36*35) = 18/35.
    close(value("Krippendorff's alpha (nominal)"), 1 - (1 / 3) / (18 / 35));
    // A1-A2: p_o = 9/12, p_e = 6/12*7/12 + 6/12*5/12 = 1/2 -> 1/2.
    close(value("Cohen's kappa A1-A2"), 0.5);
    close(value("lexical precision vs majority"), 4 / 5);
    close(value("lexical recall vs majority"), 4 / 6);
    close(value("lexical F1 vs majority"), 8 / 11);
    // Judge vs majority: p_o = 9/12, p_e = 5/12*6/12 + 7/12*6/12 = 1/2 -> 1/2.
    close(value("lexical kappa vs majority"), 0.5);
    assert.deepEqual(confusion.table!.rows.at(-1), {
      label: "lexical (row) vs majority",
      values: { nn: 5, np: 2, pn: 1, pp: 4 },
    });
    // A1 vs A2 by hand: 0/0 at t1 q2,q3 and t2 q1,q3; 0/1 at t2 q2, t3 q3; 1/0 at t1 q1; 1/1 five.
    assert.deepEqual(confusion.table!.rows[0], {
      label: "A1 (row) vs A2",
      values: { nn: 4, np: 2, pn: 1, pp: 5 },
    });
    assert.equal(topics.name, "human_topic_coverage");
    assert.ok(topics.figure);
    const cov = (t: string, r: string) =>
      topics.data.coverage.find((x) => x.topicId === t && x.rater === r)!.value;
    assert.equal(cov("t1", "lexical"), 2 / 4);
    assert.equal(cov("t3", "A2"), 1);
    assert.deepEqual(topics.table!.rows[0], {
      label: "t1",
      values: { lexical: 0.5, A1: 0.5, A2: 0.25, A3: 0.75 },
    });
    assert.ok(stats.table!.notes!.some((n) => n.startsWith("offline backends: lexical judge")));
    assert.ok(stats.table!.notes![0].startsWith("12 report-level labels by 3 annotators"));
    // Each shown cell names its stored row.
    const kappa = stats.cells!.find((x) => x.row === "Cohen's kappa A1-A2")!;
    assert.deepEqual(kappa.key, {
      run: "oracle-result",
      source: "human-study",
      judge: "A1-A2",
      measure: "study_cohen_kappa",
      topicId: "all",
      topicSet: "scored(n=3)",
    });
    assert.deepEqual(topics.cells!.find((x) => x.row === "t2" && x.column === "lexical")!.key, {
      run: "oracle-result",
      source: "human-study",
      judge: "lexical",
      measure: "study_coverage(tau=3)",
      topicId: "t2",
      topicSet: "topic(id=t2)",
    });
  } finally {
    ws.close();
  }
  // Without judge ratings: no judge rows and no coverage figure.
  const plain = await stored([a, b, c]);
  try {
    assert.equal((await humanAgreementAnalyses(plain)).length, 2);
  } finally {
    plain.close();
  }
});

Deno.test("humanAgreementAnalyses: blank with the reason when the stage stored nothing", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const out = await humanAgreementAnalyses(ws);
    assert.deepEqual(out.map((a) => a.name), ["human_agreement"]);
    assert.deepEqual(out[0].table!.rows.map((r) => r.values.value), [null, null, null, null]);
    assert.equal(out[0].cells!.length, 4);
    for (const c of out[0].cells!) {
      assert.equal(c.key, undefined);
      assert.match(c.reason!, /^not stored: the measure:human-agreement stage has not run/);
    }
  } finally {
    ws.close();
  }
});

Deno.test("humanAgreementJudge: a run's report ratings in sub-question order, unrated as 0", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert(
      "questions",
      ["q1", "q2", "q3"].map((q, i) => ({
        topicId: "t1",
        questionId: q,
        kind: "subquestion",
        ordinal: i,
        text: q,
      })),
    );
    const rating = (itemId: string, questionId: string, r: number, judge = "lexical") => ({
      topicId: "t1",
      itemId,
      questionId,
      rating: r,
      judge,
    });
    await ws.upsert("ratings", [
      rating("t1:report", "q1", 4),
      rating("t1:report", "q3", 2),
      rating("t1:report:rag", "q2", 5),
      rating("t1:0#1", "q1", 5),
    ]);
    assert.deepEqual(await humanAgreementJudge(ws), {
      judge: "lexical",
      judgments: [{ topicId: "t1", itemId: "t1:report", ratings: [4, 0, 2] }],
    });
    assert.deepEqual((await humanAgreementJudge(ws, { run: "rag" })).judgments[0].ratings, [
      0,
      5,
      0,
    ]);
    await ws.upsert("ratings", [rating("t1:report", "q1", 1, "gpt")]);
    await assert.rejects(
      () => humanAgreementJudge(ws),
      /Several judges rated reports \(gpt, lexical\)/,
    );
  } finally {
    ws.close();
  }
});

Deno.test("humanAgreementAnalyses: NA slots (-2) are no items, in coverage neither, and the note counts them", async () => {
  const a = reports("a", { t1: [1, 0, 1, -2, -2], t2: [1, 1, 0, 0, 1] });
  const b = reports("b", { t1: [1, 1, 1, -2, -2], t2: [1, 1, 0, 0, 0] });
  // The judge's ratings of the placeholder slots (5, 5) must not count.
  const judge = [
    { topicId: "t1", itemId: "t1:report", ratings: [4, 0, 0, 5, 5] },
    { topicId: "t2", itemId: "t2:report", ratings: [4, 4, 4, 0, 0] },
  ];
  const ws = await stored([a, b], judge);
  try {
    const [stats, , topics] = await humanAgreementAnalyses(ws);
    const count = (m: string) => stats.data.rows.find((r) => r.measure === m)!.value;
    assert.equal(count("study_items"), 8);
    assert.equal(count("study_na_slots"), 2);
    assert.ok(
      stats.table!.notes!.some((n) =>
        n.includes("2 NA slots (placeholder sub-questions) left out")
      ),
    );
    const cov = (t: string, r: string) =>
      topics.data.coverage.find((x) => x.topicId === t && x.rater === r)!.value;
    assert.equal(cov("t1", "A1"), 2 / 3);
    assert.equal(cov("t1", "A2"), 1);
    assert.equal(cov("t1", "lexical"), 1 / 3);
    assert.equal(cov("t2", "lexical"), 3 / 5);
  } finally {
    ws.close();
  }
});
