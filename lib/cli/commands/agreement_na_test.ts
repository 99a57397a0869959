import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { agreementCommand } from "./agreement.ts";
import { seededRandom } from "@lib/metrics/mod.ts";

const SLOTS = 15;
/** Real sub-questions per topic; the other slots of the 15 are "NA" placeholders (-2). */
const REAL = [15, 12, 9, 15, 11, 13, 15, 10, 14, 15];

/** Three annotators' files in the release's layout: 15 slots, -2 for NA, coverage over all 15. */
async function releaseStudy(dir: string) {
  const rnd = seededRandom(18);
  const truth = REAL.map((n) => Array.from({ length: n }, () => (rnd() < 0.45 ? 1 : 0)));
  const labels: number[][][] = [];
  const files: string[] = [];
  for (const noise of [0.08, 0.12, 0.18]) {
    const mine = truth.map((t) => t.map((l) => (rnd() < noise ? 1 - l : l)));
    labels.push(mine);
    const path = join(dir, `annotator_${files.length}.jsonl`);
    await Deno.writeTextFile(
      path,
      mine.map((real, t) => {
        const slots = [...real, ...Array(SLOTS - real.length).fill(-2)];
        return JSON.stringify({
          id: `duc04-${t}`,
          question_based_nugget: {},
          answerability: slots,
          coverage: Math.round((real.filter((l) => l === 1).length / SLOTS) * 1000) / 1000,
        });
      }).join("\n") + "\n",
    );
    files.push(path);
  }
  return { files, labels };
}

/** Fleiss' kappa of binary labels from per-item counts, computed by hand. */
function fleissByHand(items: number[][]): number {
  const n = items[0].length;
  let agree = 0;
  let ones = 0;
  for (const it of items) {
    const a = it.filter((l) => l === 1).length;
    const b = n - a;
    agree += (a * (a - 1) + b * (b - 1)) / (n * (n - 1));
    ones += a;
  }
  const pBar = agree / items.length;
  const p1 = ones / (items.length * n);
  const pe = p1 * p1 + (1 - p1) * (1 - p1);
  return (pBar - pe) / (1 - pe);
}

/** Cohen's kappa of two binary label lists, computed by hand. */
function cohenByHand(x: number[], y: number[]): number {
  const po = x.filter((l, i) => l === y[i]).length / x.length;
  const px = x.filter((l) => l === 1).length / x.length;
  const py = y.filter((l) => l === 1).length / y.length;
  const pe = px * py + (1 - px) * (1 - py);
  return (po - pe) / (1 - pe);
}

Deno.test("crux agreement reads release files with NA slots (-2): kappas over the real items only", async () => {
  const dir = await Deno.makeTempDir();
  const { files, labels } = await releaseStudy(dir);
  const io = memoryIo();
  const code = await main(["agreement", "--labels", ...files, "--format", "json"], io, [
    agreementCommand,
  ]);
  assert.equal(code, 0, io.stderr());
  const r = JSON.parse(io.stdout());
  const realItems = REAL.reduce((s, n) => s + n, 0);
  const naSlots = REAL.reduce((s, n) => s + SLOTS - n, 0);
  assert.equal(realItems, 129);
  assert.equal(r.items, realItems);
  assert.equal(r.na_slots, naSlots);
  assert.equal(r.na_slots, 21);
  const items = labels[0].flatMap((topic, t) => topic.map((_, q) => labels.map((a) => a[t][q])));
  assert.equal(items.length, realItems);
  assert.ok(Math.abs(r.fleiss_kappa - fleissByHand(items)) < 1e-12, `${r.fleiss_kappa}`);
  const flat = labels.map((a) => a.flat());
  assert.ok(Math.abs(r.cohen_kappa[0][1] - cohenByHand(flat[0], flat[1])) < 1e-12);
  assert.ok(Math.abs(r.cohen_kappa[1][2] - cohenByHand(flat[1], flat[2])) < 1e-12);
  assert.ok(
    r.fleiss_kappa > 0.5 && r.fleiss_kappa < 1,
    `labels were drawn to agree: ${r.fleiss_kappa}`,
  );

  const table = memoryIo();
  assert.equal(await main(["agreement", "--labels", ...files], table, [agreementCommand]), 0);
  assert.match(table.stdout(), /^na_slots\s+21$/m);
  assert.match(table.stdout(), /^21 NA slots left out /m);
  assert.match(table.stdout(), new RegExp(`^items\\s+${realItems}$`, "m"));
});

Deno.test("crux agreement: an NA slot in some files only is an error naming both files and lines", async () => {
  const dir = await Deno.makeTempDir();
  const a = join(dir, "a.jsonl");
  const b = join(dir, "b.jsonl");
  await Deno.writeTextFile(a, '{"id": "t1", "answerability": [1, 0, -2], "coverage": 0.333}\n');
  await Deno.writeTextFile(b, '{"id": "t1", "answerability": [1, 0, 1], "coverage": 0.667}\n');
  const io = memoryIo();
  assert.equal(await main(["agreement", "--labels", a, b], io, [agreementCommand]), 1);
  assert.match(
    io.stderr(),
    /sub-question 3 is an "NA" slot \(-2\) in .*a\.jsonl:1 but labelled 1 in .*b\.jsonl:1/,
  );
  const c = join(dir, "c.jsonl");
  await Deno.writeTextFile(c, '{"id": "t1", "answerability": [1, 0, -3]}\n');
  const bad = memoryIo();
  assert.equal(await main(["agreement", "--labels", a, c], bad, [agreementCommand]), 1);
  assert.match(bad.stderr(), /c\.jsonl:1: answerability\[2\]: expected 0, 1 or -2/);
});
