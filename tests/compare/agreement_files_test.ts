/**
 * `crux agreement` on label files in the CRUX human-study formats against
 * statistics computed independently here from the raw labels: three
 * annotators, 30 reports x 15 sub-questions (with judge ratings), and
 * passage-level ratings with "not rated" marks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { agreementCommand } from "@lib/cli/commands/agreement.ts";
import { seededRandom } from "@lib/metrics/mod.ts";

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
  const items: number[][] = [];
  let unrated = 0;
  passages.forEach((_, i) =>
    [0, 1, 2].forEach((q) => {
      const ls = grades.map((g) => g[i][q]);
      if (ls.includes(-1)) unrated++;
      else items.push(ls);
    })
  );
  assert.equal(r.kind, "passage");
  assert.equal(r.items, items.length);
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
  close(
    r.graded.cohen_kappa[0][2],
    cohen(items.map((l) => l[0]), items.map((l) => l[2])),
    "graded Cohen",
  );
});
