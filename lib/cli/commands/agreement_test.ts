import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { agreementCommand } from "./agreement.ts";
import { seededRandom } from "@lib/metrics/mod.ts";

async function study(dir: string) {
  const rnd = seededRandom(7);
  const truth = Array.from(
    { length: 30 },
    () => Array.from({ length: 15 }, () => (rnd() < 0.5 ? 1 : 0)),
  );
  const files: string[] = [];
  for (const noise of [0.1, 0.15, 0.2]) {
    const path = join(dir, `annotator_${files.length}.jsonl`);
    const lines = truth.map((labels, t) => {
      const a = labels.map((l) => (rnd() < noise ? 1 - l : l));
      return JSON.stringify({
        id: `duc-${t}`,
        question_based_nugget: {},
        answerability: a,
        coverage: Math.round((a.reduce((s, v) => s + v, 0) / a.length) * 1000) / 1000,
      });
    });
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    files.push(path);
  }
  const judge = join(dir, "judge.jsonl");
  await Deno.writeTextFile(
    judge,
    truth.map((labels, t) =>
      JSON.stringify({
        id: `duc-${t}`,
        docid: `duc-${t}:report`,
        rating: labels.map((l) => (l ? (rnd() < 0.8 ? 4 : 1) : (rnd() < 0.9 ? 0 : 5))),
      })
    ).join("\n") + "\n",
  );
  return { files, judge };
}

Deno.test("crux agreement prints kappas, majority and judge agreement as JSON", async () => {
  const dir = await Deno.makeTempDir();
  const { files, judge } = await study(dir);
  const io = memoryIo();
  const code = await main(
    ["agreement", "--labels", ...files, "--judge", judge, "--format", "json"],
    io,
    [agreementCommand],
  );
  assert.equal(code, 0, io.stderr());
  const r = JSON.parse(io.stdout());
  assert.equal(r.items, 450);
  assert.equal(r.annotators, 3);
  assert.equal(r.cohen_kappa.length, 3);
  assert.equal(r.cohen_kappa[0][0], 1);
  assert.equal(r.cohen_kappa[0][1], r.cohen_kappa[1][0]);
  for (const k of ["fleiss_kappa", "randolph_kappa", "majority_positive_rate"]) {
    assert.equal(typeof r[k], "number", k);
  }
  // Three annotators never split evenly.
  assert.equal(r.ties, 0);
  assert.equal(r.judge.items, 450);
  assert.equal(r.judge.reports, 30);
  const { tp, fp, fn, tn } = r.judge.confusion;
  assert.equal(tp + fp + fn + tn, 450);
  assert.equal(r.judge.precision, tp / (tp + fp));
  assert.equal(r.judge.recall, tp / (tp + fn));
  assert.ok(r.judge.spearman > 0 && r.judge.spearman <= 1);
  assert.ok(r.fleiss_kappa > 0.4, `labels were drawn to agree: ${r.fleiss_kappa}`);

  const table = memoryIo();
  assert.equal(await main(["agreement", "--labels", ...files], table, [agreementCommand]), 0);
  assert.match(table.stdout(), /^fleiss_kappa\s+0\.\d{4}$/m);
  assert.match(table.stdout(), /^cohen_kappa\[1,2\]\s+0\.\d{4}$/m);
  assert.doesNotMatch(table.stdout(), /^judge/m);
  const csv = memoryIo();
  await main(["agreement", "--labels", files[0], "--labels", files[1], "--format", "csv"], csv, [
    agreementCommand,
  ]);
  assert.match(csv.stdout(), /^statistic,value\nkind,report\nitems,450\nannotators,2\n/);
});

Deno.test("crux agreement: usage errors exit 2, bad files exit 1 with file and line", async () => {
  const dir = await Deno.makeTempDir();
  const { files } = await study(dir);
  const one = memoryIo();
  assert.equal(await main(["agreement", "--labels", files[0]], one, [agreementCommand]), 2);
  assert.match(one.stderr(), /at least two annotator files/);
  const bad = join(dir, "bad.jsonl");
  await Deno.writeTextFile(bad, '{"id": "duc-0", "answerability": [1, 0]}\n{"id": "duc-1"}\n');
  const io = memoryIo();
  assert.equal(await main(["agreement", "--labels", files[0], bad], io, [agreementCommand]), 1);
  assert.match(io.stderr(), /bad\.jsonl:2: answerability: missing/);
  const mis = memoryIo();
  assert.equal(
    await main(["agreement", "--labels", files[0], join(dir, "b.jsonl")], mis, [
      agreementCommand,
    ]),
    1,
  );
  const th = memoryIo();
  assert.equal(
    await main(["agreement", "--labels", ...files, "--threshold", "9"], th, [agreementCommand]),
    2,
  );
});
