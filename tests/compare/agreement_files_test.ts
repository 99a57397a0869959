/**
 * `crux agreement` on label files in the CRUX human-study formats against
 * statistics computed independently here from the raw labels: three
 * annotators, 30 reports x 15 sub-questions (with judge ratings),
 * passage-level ratings with "not rated" marks, a 3-annotator overlap-2 study
 * from `crux annotate create` to the export, and graded incomplete designs.
 */
import assert from "node:assert/strict";
import { studyWorkspace } from "../support/study_workspace.ts";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { agreementCommand } from "@lib/cli/commands/agreement.ts";
import { COMMANDS } from "@lib/cli/registry.ts";
import { seededRandom } from "@lib/metrics/mod.ts";
import { openWorkspace, readAnnotatorQueue, saveAnnotationLabel } from "@lib/store/mod.ts";

const close = (a: number, b: number, what: string, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${what}: ${a} vs ${b}`);

/** Fleiss (1971) from an items x categories count table, written out. */
function fleiss(table: number[][]): { fleiss: number; pBar: number } {
  const n = table[0].reduce((s, v) => s + v, 0), N = table.length;
  const pBar =
    table.reduce((s, row) => s + (row.reduce((t, c) => t + c * c, 0) - n) / (n * (n - 1)), 0) / N;
  const k = table[0].length;
  let pe = 0;
  for (let j = 0; j < k; j++) pe += (table.reduce((s, row) => s + row[j], 0) / (N * n)) ** 2;
  return { fleiss: (pBar - pe) / (1 - pe), pBar };
}

function cohen(a: number[], b: number[]): number {
  const cats = [...new Set([...a, ...b])];
  const po = a.filter((v, i) => v === b[i]).length / a.length;
  const pe = cats.reduce(
    (s, c) =>
      s +
      (a.filter((v) => v === c).length / a.length) * (b.filter((v) => v === c).length / b.length),
    0,
  );
  return (po - pe) / (1 - pe);
}

function ranks(xs: number[]): number[] {
  const order = xs.map((v, i) => [v, i]).sort((p, q) => p[0] - q[0]);
  const r = new Array(xs.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) r[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

function pearsonOf(x: number[], y: number[]): number {
  const mx = x.reduce((s, v) => s + v, 0) / x.length, my = y.reduce((s, v) => s + v, 0) / y.length;
  let sxy = 0, sxx = 0, syy = 0;
  x.forEach((v, i) => {
    sxy += (v - mx) * (y[i] - my);
    sxx += (v - mx) ** 2;
    syy += (y[i] - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
}

async function agreement(args: string[]) {
  const io = memoryIo();
  const code = await main(["agreement", ...args, "--format", "json"], io, [agreementCommand]);
  assert.equal(code, 0, io.stderr());
  return JSON.parse(io.stdout());
}

Deno.test("report-level files: 3 annotators, 30 reports, 15 sub-questions, judge ratings", async () => {
  const dir = await Deno.makeTempDir();
  const rnd = seededRandom(31);
  const truth = Array.from(
    { length: 30 },
    () => Array.from({ length: 15 }, () => (rnd() < 0.4 ? 1 : 0)),
  );
  const labels = [0.08, 0.15, 0.25].map((noise) =>
    truth.map((t) => t.map((l) => (rnd() < noise ? 1 - l : l)))
  );
  const files = await Promise.all(labels.map(async (byReport, k) => {
    const path = join(dir, `annotator${k}.jsonl`);
    await Deno.writeTextFile(
      path,
      byReport.map((a, t) =>
        JSON.stringify({
          id: `r${t}`,
          question_based_nugget: Object.fromEntries(
            a.map((l, q) => [`Question ${q}?`, l ? `span ${q}` : ""]),
          ),
          answerability: a,
          coverage: Math.round((a.reduce((s, v) => s + v, 0) / 15) * 1000) / 1000,
        })
      ).join("\n") + "\n",
    );
    return path;
  }));
  const ratings = truth.map((t) => t.map((l) => Math.floor(rnd() * 3) + (l ? 3 : 0)));
  const judge = join(dir, "judge.jsonl");
  await Deno.writeTextFile(
    judge,
    ratings.map((r, t) => JSON.stringify({ id: `r${t}`, docid: `r${t}:report`, rating: r })).join(
      "\n",
    ) + "\n",
  );
  const r = await agreement(["--labels", ...files, "--judge", judge]);
  // Independent computation over the 450 items.
  const flat = labels.map((byReport) => byReport.flat());
  const table = flat[0].map((_, i) => {
    const ones = flat.reduce((s, l) => s + l[i], 0);
    return [3 - ones, ones];
  });
  const f = fleiss(table);
  assert.equal(r.items, 450);
  assert.equal(r.annotators, 3);
  close(r.fleiss_kappa, f.fleiss, "Fleiss");
  close(r.randolph_kappa, (f.pBar - 0.5) / 0.5, "Randolph");
  for (const [a, b] of [[0, 1], [0, 2], [1, 2]]) {
    close(r.cohen_kappa[a][b], cohen(flat[a], flat[b]), `Cohen ${a}-${b}`);
  }
  const majority = table.map(([, ones]) => ones >= 2);
  close(r.majority_positive_rate, majority.filter(Boolean).length / 450, "majority");
  const judged = ratings.flat().map((x) => x >= 3);
  const tp = judged.filter((j, i) => j && majority[i]).length;
  close(r.judge.precision, tp / judged.filter(Boolean).length, "precision");
  close(r.judge.recall, tp / majority.filter(Boolean).length, "recall");
  // Coverage per report: humans = mean over annotators of the share answered; judge = share >= 3.
  // Exact shares (counts over 45 labels), so equal coverages tie.
  const hc = truth.map((_, t) =>
    labels.reduce((s, l) => s + l[t].reduce((u, v) => u + v, 0), 0) / 45
  );
  const jc = ratings.map((rs) => rs.filter((x) => x >= 3).length / 15);
  close(r.judge.pearson, pearsonOf(hc, jc), "Pearson");
  close(r.judge.spearman, pearsonOf(ranks(hc), ranks(jc)), "Spearman");
});

Deno.test("passage-level files: -1 is not rated and left out; graded and binary kappas", async () => {
  const dir = await Deno.makeTempDir();
  const rnd = seededRandom(5);
  const passages = Array.from(
    { length: 20 },
    (_, i) => ({ topic: `t${i % 2}`, id: `t${i % 2}:0#${i}` }),
  );
  const base = passages.map(() => [0, 1, 2].map(() => Math.floor(rnd() * 6)));
  const grades = [0, 1, 2].map(() =>
    base.map((qs) =>
      qs.map((g) => (rnd() < 0.1 ? -1 : Math.max(0, Math.min(5, g + Math.floor(rnd() * 3) - 1))))
    )
  );
  const files = await Promise.all(grades.map(async (g, k) => {
    const path = join(dir, `p${k}.jsonl`);
    await Deno.writeTextFile(
      path,
      passages.map((p, i) =>
        JSON.stringify({
          id: p.topic,
          document: p.id,
          relevances: Object.fromEntries(g[i].map((v, q) => [String(q), v])),
          rationales: Object.fromEntries(g[i].map((_, q) => [String(q), "because"])),
        })
      ).join("\n") + "\n",
    );
    return path;
  }));
  const r = await agreement(["--labels", ...files, "--threshold", "3"]);
  // -1 is a missing label: Fleiss over the sub-questions all three rated, the rest pairable
  // when two rated.
  const items: number[][] = [];
  let unrated = 0, pairable = 0;
  passages.forEach((_, i) =>
    [0, 1, 2].forEach((q) => {
      const ls = grades.map((g) => g[i][q]);
      if (ls.includes(-1)) unrated++;
      else items.push(ls);
      if (ls.filter((l) => l !== -1).length >= 2) pairable++;
    })
  );
  assert.equal(r.kind, "passage");
  assert.equal(r.items, pairable);
  assert.equal(r.complete_items, items.length);
  assert.ok(pairable > items.length);
  assert.equal(r.unrated, unrated);
  const binary = items.map((ls) => {
    const ones = ls.filter((l) => l >= 3).length;
    return [3 - ones, ones];
  });
  close(r.fleiss_kappa, fleiss(binary).fleiss, "binary Fleiss");
  const graded = items.map((ls) => [0, 1, 2, 3, 4, 5].map((c) => ls.filter((l) => l === c).length));
  const g = fleiss(graded);
  close(r.graded.fleiss_kappa, g.fleiss, "graded Fleiss");
  close(r.graded.randolph_kappa, (g.pBar - 1 / 6) / (1 - 1 / 6), "graded Randolph");
  // Cohen's kappa of annotators 1 and 3 over the sub-questions both rated.
  const both = passages.flatMap((_, i) =>
    [0, 1, 2].flatMap((q) =>
      grades[0][i][q] >= 0 && grades[2][i][q] >= 0 ? [[grades[0][i][q], grades[2][i][q]]] : []
    )
  );
  close(r.graded.cohen_kappa[0][2], cohen(both.map((p) => p[0]), both.map((p) => p[1])), "Cohen");
});

/** A workspace of 4 topics with 3 sub-questions each and 2 generation runs. */
async function fourTopicStudy(): Promise<string> {
  return await studyWorkspace({
    prefix: "agreement-study-",
    topics: ["t1", "t2", "t3", "t4"],
    questions: 3,
    runs: ["rag", "direct"],
    report: (_, t) => `Report on ${t}. The answer is here.`,
  });
}

async function cli(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  assert.equal(code, 0, io.stderr());
  return io;
}

Deno.test("a 3-annotator, overlap-2 study: created, labelled, exported and scored", async () => {
  const dir = await fourTopicStudy();
  await cli([
    "annotate",
    "create",
    "--workspace",
    dir,
    "--task",
    "answerability",
    "--annotators",
    "a,b,c",
    "--per-condition",
    "2",
    "--overlap",
    "2",
  ]);
  // Unit j goes to annotators j and j+1 (mod 3): u1 a,b; u2 b,c; u3 c,a; u4 a,b.
  // Labels per unit and annotator, sub-questions in order:
  const given: Record<string, Record<string, number[]>> = {
    u1: { a: [1, 0, 1], b: [1, 1, 1] },
    u2: { b: [0, 0, 1], c: [0, 1, 1] },
    u3: { c: [1, 0, 0], a: [1, 1, 0] },
    u4: { a: [0, 1, 1], b: [0, 1, 0] },
  };
  const ws = await openWorkspace(dir);
  try {
    for (const a of ["a", "b", "c"]) {
      for (const item of await readAnnotatorQueue(ws, "answerability", a)) {
        const labels = given[item.unit][a];
        assert.ok(labels, `${a} was given unit ${item.unit}`);
        const q = Number(item.questionId!.slice(-1)) - 1;
        await saveAnnotationLabel(ws, {
          task: "answerability",
          annotator: a,
          itemId: item.itemId,
          label: String(labels[q]),
          span: labels[q] ? "The answer is here." : undefined,
        });
      }
    }
  } finally {
    ws.close();
  }
  const out = join(dir, "study");
  await cli(["annotate", "export", "--workspace", dir, "--task", "answerability", "--out", out]);
  const files = ["a", "b", "c"].map((a) => join(out, `${a}.jsonl`));
  const r = await agreement(["--labels", ...files]);
  assert.equal(r.items, 12);
  assert.equal(r.complete_items, 0);
  assert.equal(r.fleiss_kappa, null, "no item labelled by all three");
  // a-b over u1 and u4: a 101 011, b 111 010: p_o 4/6, both 4/6 positive,
  // p_e = (4/6)² + (2/6)² = 5/9: kappa (2/3 - 5/9) / (4/9) = 1/4.
  close(r.cohen_kappa[0][1], 1 / 4, "Cohen a-b");
  // b-c over u2: b 001, c 011: p_o 2/3, p_e = 1/3 * 2/3 + 2/3 * 1/3 = 4/9: (2/9) / (5/9) = 2/5.
  close(r.cohen_kappa[1][2], 2 / 5, "Cohen b-c");
  // a-c over u3: a 110, c 100: p_o 2/3, p_e 4/9: 2/5.
  close(r.cohen_kappa[0][2], 2 / 5, "Cohen a-c");
  assert.deepEqual(r.pairs.map((p: { items: number }) => p.items), [6, 3, 3]);
  // Alpha: 12 units of two values. Pairs 1/1 five times (o11 = 10), 0/0 three times
  // (o00 = 6), mixed four times (o01 = o10 = 4): n0 = 10, n1 = 14, n = 24;
  // alpha = 1 - 23 * 8 / (2 * 10 * 14) = 12/35. With two values every level agrees.
  close(r.krippendorff_alpha.nominal, 12 / 35, "alpha nominal");
  close(r.krippendorff_alpha.ordinal, 12 / 35, "alpha ordinal");

  // The table names what is undefined instead of failing.
  const table = await cli(["agreement", "--labels", ...files]);
  assert.match(table.stdout(), /No item is labelled by every annotator/);
  assert.match(table.stdout(), /krippendorff_alpha\.nominal\s+0\.3429/);

  // An annotator with no finished unit exports an empty file: reported, left out.
  await Deno.writeTextFile(files[2], "");
  const two = await cli(["agreement", "--labels", ...files, "--format", "json"]);
  const r2 = JSON.parse(two.stdout());
  assert.deepEqual(r2.empty_files, [files[2]]);
  assert.equal(r2.annotators, 2);
  close(r2.cohen_kappa[0][1], 1 / 4, "Cohen a-b without c");
  const shown = await cli(["agreement", "--labels", ...files]);
  assert.match(shown.stdout(), /Left out, empty \(no finished unit\): .*c\.jsonl/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("graded passage labels of an incomplete design: ordinal and interval alpha", async () => {
  const dir = await Deno.makeTempDir();
  // Three annotators, each passage rated by two of them (sub-question 0 only).
  //   p1: a 1, b 2    p2: b 2, c 3    p3: a 3, c 3    p4: a 1, b 1    p5: b 1, c 3
  const ratings: Record<string, Record<string, number>> = {
    a: { p1: 1, p3: 3, p4: 1 },
    b: { p1: 2, p2: 2, p4: 1, p5: 1 },
    c: { p2: 3, p3: 3, p5: 3 },
  };
  const files = await Promise.all(
    Object.entries(ratings).map(async ([a, byPassage]) => {
      const path = join(dir, `${a}.jsonl`);
      await Deno.writeTextFile(
        path,
        Object.entries(byPassage).map(([p, v]) =>
          JSON.stringify({ id: "t", document: p, relevances: { "0": v } })
        ).join("\n") + "\n",
      );
      return path;
    }),
  );
  const r = await agreement(["--labels", ...files]);
  assert.equal(r.items, 5);
  // Coincidences: o12 = o21 = 1 (p1), o23 = o32 = 1 (p2), o33 = 2 (p3), o11 = 2 (p4),
  // o13 = o31 = 1 (p5): n1 = 4, n2 = 2, n3 = 4, n = 10.
  // Nominal: 1 - 9 * 6 / (100 - 16 - 4 - 16) = 1 - 54/64.
  close(r.graded.krippendorff_alpha.nominal, 1 - 54 / 64, "nominal");
  // Ordinal: δ12 = (4 + 2)/2 = 3, δ23 = (2 + 4)/2 = 3, δ13 = 4/2 + 2 + 4/2 = 6 (squared).
  // Observed 2 * (9 + 9 + 36) = 108; expected 2 * (4*2*9 + 2*4*9 + 4*4*36) = 2 * 720 = 1440.
  close(r.graded.krippendorff_alpha.ordinal, 1 - (9 * 108) / 1440, "ordinal");
  // Interval: δ² 1, 1, 4: observed 2 * (1 + 1 + 4) = 12; expected 2 * (8 + 8 + 64) = 160.
  close(r.graded.krippendorff_alpha.interval, 1 - (9 * 12) / 160, "interval");
  // Cohen a-b over p1, p4 graded: a [1, 1], b [2, 1]: p_o 1/2, p_e = 1 * 1/2 = 1/2 -> 0.
  close(r.graded.cohen_kappa[0][1], 0, "graded Cohen a-b");
});

Deno.test("typed sub-question decompositions of 4 annotators, and a judge against the majority", async () => {
  const dir = await Deno.makeTempDir();
  const Q1 = "What drives comet tails?", Q2 = "Where do comets come from?";
  // Types of s1..s5 by annotators 1-4 (C core, B background, F follow-up):
  //   s1 C C C C   s2 C C B B   s3 B B B F   s4 F F C F   s5 B C B B
  const T: Record<string, string> = { C: "core", B: "background", F: "follow-up" };
  const typesOf = ["CCBFB", "CCBFC", "CBBCB", "CBFFB"];
  const subqs = ["Is the tail made of dust?", "What is solar wind?", "Why two tails?"];
  const subqs2 = ["What is the Oort cloud?", "Could a comet hit Earth?"];
  const files = await Promise.all(typesOf.map(async (types, k) => {
    const t = [...types].map((c) => T[c]);
    // Annotator 3 writes the texts in other case and spacing, without question marks;
    // annotator 4 lists the questions in the other order and spells "Follow up".
    const text = (s: string) => (k === 2 ? `  ${s.toUpperCase().replace("?", "")} ` : s);
    const type = (x: string) => (k === 3 && x === "follow-up" ? "Follow up" : x);
    const doc = [
      {
        question: text(Q1),
        sub_questions_with_types: subqs.map((s, i) => ({
          sub_question: text(s),
          type: type(t[i]),
        })),
      },
      {
        question: text(Q2),
        sub_questions_with_types: subqs2.map((s, i) => ({
          sub_question: text(s),
          type: type(t[i + 3]),
        })),
      },
    ];
    if (k === 3) doc.reverse();
    const path = join(dir, `typist${k + 1}.json`);
    await Deno.writeTextFile(path, JSON.stringify(doc, null, 1));
    return path;
  }));
  // The judge: s1 C, s2 C, s3 B, s4 C, s5 F, and one sub-question no annotator typed.
  const judge = join(dir, "judge.json");
  await Deno.writeTextFile(
    judge,
    JSON.stringify([
      {
        question: Q1,
        sub_questions_with_types: [
          ...subqs.map((s, i) => ({ sub_question: s, type: T["CCB"[i]] })),
          { sub_question: "Extra?", type: "core" },
        ],
      },
      {
        question: Q2,
        sub_questions_with_types: subqs2.map((s, i) => ({ sub_question: s, type: T["CF"[i]] })),
      },
    ]),
  );
  const r = await agreement(["--labels", ...files, "--judge", judge]);
  assert.equal(r.kind, "types");
  assert.equal(r.items, 5);
  assert.equal(r.complete_items, 5);
  assert.equal(r.questions, 2);
  assert.deepEqual(r.type_counts, { core: 8, background: 8, "follow-up": 4 });
  // Fleiss: per item (C, B, F) counts 400, 220, 031, 103, 130; P_i = (Σc² - 4) / 12:
  // 1, 1/3, 1/2, 1/2, 1/2 -> P̄ = 17/30; shares 8/20, 8/20, 4/20 -> P_e = 0.36.
  close(r.fleiss_kappa, (17 / 30 - 0.36) / (1 - 0.36), "Fleiss");
  close(r.fleiss_kappa, 31 / 96, "Fleiss");
  // Alpha (nominal): disagreeing pairs per item / (m - 1) = (16 - Σc²) / 3: 0, 8/3, 2, 2, 2
  // -> 26/3; n = 20, expected 20² - (8² + 8² + 4²) = 256: alpha = 1 - 19 * (26/3) / 256.
  close(r.krippendorff_alpha.nominal, 1 - (19 * 26) / (3 * 256), "alpha");
  close(r.krippendorff_alpha.nominal, 137 / 384, "alpha");
  // Cohen 1-2: CCBFB vs CCBFC, p_o 4/5, p_e (2*3 + 2*1 + 1*1) / 25 = 9/25 -> 11/16.
  close(r.cohen_kappa[0][1], 11 / 16, "Cohen 1-2");
  // Cohen 3-4: CBBCB vs CBFFB, p_o 3/5, p_e (2*1 + 3*2 + 0*2) / 25 = 8/25 -> 7/17.
  close(r.cohen_kappa[2][3], 7 / 17, "Cohen 3-4");
  close(r.pairs[0].agreement, 4 / 5, "raw agreement 1-2");
  // Majority: s1 C, s2 tie, s3 B, s4 F, s5 B. The judge is right on s1, s3: 2 of 4.
  assert.equal(r.majority_items, 4);
  assert.equal(r.ties, 1);
  assert.equal(r.judge.items, 4);
  close(r.judge.accuracy, 1 / 2, "judge accuracy");
  // Judge kappa: majority C B F B, judge C B C F: p_o 2/4, p_e (1*2 + 2*1 + 1*1) / 16 = 5/16.
  close(r.judge.kappa, (1 / 2 - 5 / 16) / (1 - 5 / 16), "judge kappa");
  assert.equal(r.judge.confusion["follow-up"].core, 1);
  // Each annotator against the majority of the other three (s2 is C,B,B or C,C,B for them):
  // 1: s2 wrong -> 4/5; 2: s2, s5 wrong -> 3/5; 3: s2, s4 wrong -> 3/5; 4: s2, s3 wrong -> 3/5.
  assert.deepEqual(r.annotator_accuracy, { "1": 0.8, "2": 0.6, "3": 0.6, "4": 0.6, mean: 0.65 });
  const table = await cli(["agreement", "--labels", ...files, "--judge", judge]);
  assert.match(table.stdout(), /sub-question types/);
  assert.match(table.stdout(), /judge\.accuracy\s+0\.5000/);
  // One file of each kind is refused with both names.
  const io = memoryIo();
  const other = join(dir, "report.jsonl");
  await Deno.writeTextFile(other, '{"id": "t", "answerability": [1]}\n');
  assert.equal(await main(["agreement", "--labels", files[0], other], io, COMMANDS), 2);
  assert.match(io.stderr(), /typist1\.json is a typed sub-question file/);
});

Deno.test("typed decompositions: JSONL files, untyped sub-questions left out and counted", async () => {
  const dir = await Deno.makeTempDir();
  const doc = (types: (string | null)[]) => ({
    question: "Q?",
    sub_questions_with_types: types.map((type, i) => ({ sub_question: `s${i}?`, type })),
  });
  const a = join(dir, "a.jsonl"), b = join(dir, "b.json"), c = join(dir, "c.json");
  await Deno.writeTextFile(a, JSON.stringify(doc(["core", "core", "background"])) + "\n");
  await Deno.writeTextFile(b, JSON.stringify([doc(["core", null, "follow-up"])]));
  await Deno.writeTextFile(c, JSON.stringify([doc(["core", "background", "background"])]));
  const r = await agreement(["--labels", a, b, c]);
  assert.equal(r.kind, "types");
  assert.equal(r.untyped, 1);
  // s1 typed by a and c only: 3 items, 2 complete (s0, s2).
  assert.equal(r.items, 3);
  assert.equal(r.complete_items, 2);
  // a-b share s0 (core/core) and s2 (background/follow-up): p_o 1/2;
  // a: core 1/2, background 1/2; b: core 1/2, follow-up 1/2: p_e 1/4 -> kappa 1/3.
  close(r.cohen_kappa[0][1], 1 / 3, "Cohen a-b");
  assert.deepEqual(r.pairs.map((p: { items: number }) => p.items), [2, 3, 2]);
});
