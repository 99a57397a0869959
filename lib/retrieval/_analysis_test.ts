import assert from "node:assert/strict";
import { BatchAnalysis, TextBatcher, WorkerEncoder } from "./_analysis.ts";
import { seededRandom as prng } from "@lib/metrics/mod.ts";
import { TermEncoder } from "../text/term_encoder.ts";

const BATCHES = [
  ["Storms hit the coast", "", "storm damage on the coasts"],
  ["The flooding closed roads; roads reopened", "hit hits hitting"],
  ["damage", "new words arrive later"],
];

Deno.test("the worker numbers terms as one encoder on this thread does, batch after batch", async () => {
  const worker = new WorkerEncoder();
  const local = new TextBatcher();
  const whole = new TermEncoder();
  try {
    // Sent at once: replies come back in order.
    const replies = await Promise.all(BATCHES.map((b) => worker.encode(b)));
    let known = 0;
    for (const [i, texts] of BATCHES.entries()) {
      const mine = local.encode(texts);
      assert.deepEqual(replies[i], mine);
      const ids: number[] = [];
      const ends: number[] = [];
      for (const t of texts) {
        whole.encode(t, ids);
        ends.push(ids.length);
      }
      assert.deepEqual([...replies[i].ids], ids);
      assert.deepEqual([...replies[i].ends], ends);
      assert.deepEqual(replies[i].terms, whole.terms.slice(known));
      known = whole.terms.length;
    }
    assert.deepEqual(replies[0].terms, ["storm", "hit", "coast", "damag"]);
    assert.deepEqual([...replies[0].ends], [3, 3, 6]);
    assert.deepEqual([...replies[2].ids], [3, 8, 9, 10, 11]);
  } finally {
    worker.close();
  }
});

Deno.test("a failure in the worker rejects the batch and every later one", async () => {
  const worker = new WorkerEncoder();
  try {
    const good = worker.encode(["storm"]);
    const bad = worker.encode([null as unknown as string]);
    const after = worker.encode(["coast"]);
    assert.deepEqual((await good).terms, ["storm"]);
    await assert.rejects(bad, /Analysis worker failed: .*TypeError/s);
    await assert.rejects(after, /Analysis worker failed/);
    await assert.rejects(worker.encode(["again"]), /Analysis worker failed/);
  } finally {
    worker.close();
  }
});

Deno.test("closing the worker rejects what it had not answered", async () => {
  const worker = new WorkerEncoder();
  const pending = worker.encode(["storm ".repeat(100_000)]);
  worker.close();
  await assert.rejects(pending, /Analysis worker closed/);
});

/** Texts over a skewed vocabulary, in batches of random sizes. */
function batches(seed: number, count: number): string[][] {
  const rand = prng(seed);
  const word = () => `w${Math.floor(rand() ** 3 * 400)}ing`;
  return Array.from(
    { length: count },
    () =>
      Array.from(
        { length: 1 + Math.floor(rand() * 20) },
        () => Array.from({ length: Math.floor(rand() * 12) }, word).join(" "),
      ),
  );
}

for (const workers of [0, 1, 2]) {
  Deno.test(`batches analyzed with ${workers} worker(s) come back numbered as one encoder numbers them`, async () => {
    const input = batches(17 + workers, 60);
    const whole = new TermEncoder();
    const analysis = new BatchAnalysis(workers);
    try {
      let taken = 0;
      const check = (batch: { ids: Int32Array; ends: Uint32Array } | undefined) => {
        assert.ok(batch);
        const texts = input[taken++];
        const ids: number[] = [];
        const ends: number[] = [];
        for (const t of texts) {
          whole.encode(t, ids);
          ends.push(ids.length);
        }
        assert.deepEqual([...batch.ids], ids);
        assert.deepEqual([...batch.ends], ends);
        assert.deepEqual(analysis.terms, whole.terms);
      };
      for (const [i, texts] of input.entries()) {
        analysis.add(texts);
        // Take some batches as they are ready, leave others queued.
        if (i % 7 === 3) { for (let b = analysis.ready(); b; b = analysis.ready()) check(b); }
        if (i % 11 === 5 && analysis.queued > 0) check(await analysis.take());
      }
      assert.equal(analysis.workers, workers);
      while (analysis.queued > 0) check(await analysis.take());
      assert.equal(taken, input.length);
      assert.equal(await analysis.take(), undefined);
      assert.ok(whole.terms.length > 100, `${whole.terms.length} terms`);
    } finally {
      analysis.close();
    }
  });
}

Deno.test("a batch added as local never starts a worker", () => {
  const analysis = new BatchAnalysis(2);
  try {
    analysis.add(["storm coast storm"], true);
    assert.equal(analysis.workers, 0);
    const batch = analysis.ready();
    assert.deepEqual(batch && [...batch.ids], [0, 1, 0]);
    assert.deepEqual(analysis.terms, ["storm", "coast"]);
  } finally {
    analysis.close();
  }
});
