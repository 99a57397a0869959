import assert from "node:assert/strict";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { Bm25Index } from "../../retrieval/mod.ts";
import { searchCommand } from "./search.ts";

async function fixture(dir: string) {
  // "b" and "a" are identical: equal scores, written docid descending ("b" first).
  await Bm25Index.build([
    { id: "a", text: "hurricane damage on the coast" },
    { id: "b", text: "hurricane damage on the coast" },
    { id: "c", text: "coast guard" },
    { id: "d", text: "stock markets" },
  ]).save(`${dir}/idx`);
  await Deno.writeTextFile(
    `${dir}/topics.jsonl`,
    '{"id": "q1", "text": "hurricane coast"}\n{"id": "q2", "query": "volcano"}\n',
  );
}

Deno.test("crux search writes a TREC run in trec_eval order", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await fixture(dir);
    const io = memoryIo();
    const code = await main(
      [
        "search",
        "--index",
        `${dir}/idx`,
        "--topics",
        `${dir}/topics.jsonl`,
        "--out",
        `${dir}/out/bm25.run`,
        "--k",
        "3",
        "--tag",
        "mybm25",
      ],
      io,
      [searchCommand],
    ); // deno-fmt-ignore
    assert.equal(code, 0, io.stderr());
    const lines = (await Deno.readTextFile(`${dir}/out/bm25.run`)).trim().split("\n");
    const cols = lines.map((l) => l.split(" "));
    assert.deepEqual(cols.map((c) => [c[0], c[1], c[2], c[3], c[5]]), [
      ["q1", "Q0", "b", "1", "mybm25"],
      ["q1", "Q0", "a", "2", "mybm25"],
      ["q1", "Q0", "c", "3", "mybm25"],
    ]);
    assert.equal(cols[0][4], cols[1][4]);
    const expected = Bm25Index.build([
      { id: "a", text: "hurricane damage on the coast" },
      { id: "b", text: "hurricane damage on the coast" },
      { id: "c", text: "coast guard" },
      { id: "d", text: "stock markets" },
    ]).search("hurricane coast", 1)[0].score;
    assert.equal(Number(cols[0][4]), expected);
    assert.match(io.stdout(), /Wrote 3 rows for 2 topics/);
    assert.match(io.stderr(), /1 topic\(s\) matched no passage/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux search reports a missing index and bad options", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await fixture(dir);
    const io = memoryIo();
    const args = [
      "search",
      "--index",
      `${dir}/none`,
      "--topics",
      `${dir}/topics.jsonl`,
      "--out",
      `${dir}/r`,
    ];
    assert.equal(await main(args, io, [searchCommand]), 1);
    assert.match(io.stderr(), /Cannot load BM25 index .*none.*build one with `crux index`/);
    const bad = memoryIo();
    const good = ["--index", `${dir}/idx`, "--topics", `${dir}/topics.jsonl`, "--out", `${dir}/r`];
    assert.equal(await main(["search", ...good, "--k", "0"], bad, [searchCommand]), 2);
    assert.match(bad.stderr(), /--k expects a positive integer, got "0"/);
    const tag = memoryIo();
    assert.equal(await main(["search", ...good, "--tag", "a b"], tag, [searchCommand]), 2);
    assert.match(tag.stderr(), /--tag must be one word/);
    const miss = memoryIo();
    assert.equal(await main(["search", "--index", "x"], miss, [searchCommand]), 2);
    assert.match(miss.stderr(), /Missing --topics/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux search keeps the docid-descending documents of a tie at the --k cutoff", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Bm25Index.build([
      { id: "a", text: "apple pie" },
      { id: "c", text: "apple pie" },
      { id: "b", text: "apple pie" },
    ]).save(`${dir}/idx`);
    await Deno.writeTextFile(`${dir}/topics.jsonl`, '{"id": "q", "text": "apple pie"}\n');
    const io = memoryIo();
    const args = ["search", "--index", `${dir}/idx`, "--topics", `${dir}/topics.jsonl`];
    const code = await main([...args, "--out", `${dir}/r.run`, "--k", "2"], io, [searchCommand]);
    assert.equal(code, 0, io.stderr());
    const lines = (await Deno.readTextFile(`${dir}/r.run`)).trim().split("\n");
    assert.deepEqual(lines.map((l) => l.split(" ").slice(0, 4).join(" ")), [
      "q Q0 c 1",
      "q Q0 b 2",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
