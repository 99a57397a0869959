import assert from "node:assert/strict";
import { type HumanAnnotations, parseHumanAnnotations } from "@lib/formats/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { humanAgreementAnalyses } from "./human_agreement_analyses.ts";
import { humanAgreementJudge } from "./human_agreement_judge.ts";

function reports(file: string, labels: Record<string, number[]>): HumanAnnotations {
  const text = Object.entries(labels)
    .map(([id, a]) => JSON.stringify({ id, question_based_nugget: {}, answerability: a }))
    .join("\n");
  return parseHumanAnnotations(text, { file });
}

const close = (a: number, b: number, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

Deno.test("humanAgreementAnalyses: kappas, confusion and per-topic coverage of judge and annotators", () => {
  const a = reports("a", { t1: [1, 1, 0, 0], t2: [1, 0, 0, 0], t3: [1, 1, 1, 0] });
  const b = reports("b", { t1: [1, 0, 0, 0], t2: [1, 0, 1, 0], t3: [1, 1, 1, 1] });
  const c = reports("c", { t1: [1, 1, 0, 1], t2: [0, 0, 0, 0], t3: [1, 1, 0, 0] });
  const judge = [
    { topicId: "t1", itemId: "t1:report", ratings: [5, 2, 4, 0] },
    { topicId: "t2", itemId: "t2:report", ratings: [3, 0, 0, 0] },
    { topicId: "t3", itemId: "t3:report", ratings: [4, 4, 1, 0] },
  ];
  const [stats, confusion, topics] = humanAgreementAnalyses([a, b, c], {
    judge,
    judgeName: "lexical",
  });
  const value = (label: string) =>
    stats.table!.rows.find((r) => r.label === label)!.values.value as number;
  // P-bar over 12 items: 6 unanimous (1) and 6 two-to-one (1/3) -> 8/12.
  const pBar = (6 + 6 / 3) / 12;
  close(value("Randolph's free-marginal kappa"), (pBar - 0.5) / 0.5);
  close(value("Fleiss' kappa"), stats.data.agreement.fleissKappa);
  close(value("lexical precision vs majority"), 4 / 5);
  close(value("lexical recall vs majority"), 4 / 6);
  assert.deepEqual(confusion.table!.rows.at(-1), {
    label: "lexical (row) vs majority",
    values: { nn: 5, np: 2, pn: 1, pp: 4 },
  });
  // A1 vs A2 by hand: 0/0 at t1 q2,q3 and t2 q1,q3; 0/1 at t2 q2, t3 q3; 1/0 at t1 q1; 1/1 five.
  assert.deepEqual(confusion.table!.rows[0].values, { nn: 4, np: 2, pn: 1, pp: 5 });
  assert.equal(topics.name, "human_topic_coverage");
  assert.ok(topics.figure);
  const cov = (t: string, r: string) =>
    topics.data.coverage.find((x) => x.topicId === t && x.rater === r)!.value;
  assert.equal(cov("t1", "lexical"), 2 / 4);
  assert.equal(cov("t3", "A2"), 1);
  assert.equal(topics.table!.rows.length, 3);
  assert.ok(stats.table!.notes!.some((n) => n.startsWith("offline backends: lexical judge")));
  // Without judge ratings: no judge rows and no coverage figure.
  assert.equal(humanAgreementAnalyses([a, b, c]).length, 2);
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

Deno.test("humanAgreementAnalyses: NA slots (-2) are no items, in coverage neither, and the note counts them", () => {
  const a = reports("a", { t1: [1, 0, 1, -2, -2], t2: [1, 1, 0, 0, 1] });
  const b = reports("b", { t1: [1, 1, 1, -2, -2], t2: [1, 1, 0, 0, 0] });
  // The judge's ratings of the placeholder slots (5, 5) must not count.
  const judge = [
    { topicId: "t1", itemId: "t1:report", ratings: [4, 0, 0, 5, 5] },
    { topicId: "t2", itemId: "t2:report", ratings: [4, 4, 4, 0, 0] },
  ];
  const [stats, , topics] = humanAgreementAnalyses([a, b], { judge, judgeName: "j" });
  assert.equal(stats.data.agreement.items, 8);
  assert.equal(stats.data.agreement.naSlots, 2);
  assert.ok(
    stats.table!.notes!.some((n) => n.includes("2 NA slots (placeholder sub-questions) left out")),
  );
  const cov = (t: string, r: string) =>
    topics.data.coverage.find((x) => x.topicId === t && x.rater === r)!.value;
  assert.equal(cov("t1", "A1"), 2 / 3);
  assert.equal(cov("t1", "A2"), 1);
  assert.equal(cov("t1", "j"), 1 / 3);
  assert.equal(cov("t2", "j"), 3 / 5);
});
