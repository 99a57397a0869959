import assert from "node:assert/strict";
import type { Qrel, RunRow } from "@lib/types/mod.ts";
import { formatRun, parseQrels, parseRun } from "@lib/formats/mod.ts";
import { qrelsTableRows, scanQrelsTable } from "./qrels_table.ts";
import { runTableRows, scanRunTable, topicRows } from "./run_table.ts";
import { evaluate } from "./evaluate.ts";
import { seededRandom } from "./seeded_random.ts";
import { SpanIndex } from "./_span_hash.ts";

Deno.test("scanRunTable keeps offsets, scores and ranks per topic", () => {
  const text = "q1 Q0 d1 1 2.5 x\n\nq2 Q0 d7 1 1 x\nq1 Q0 d2 2 1.5 y\n";
  const table = scanRunTable(text, { run: "r" })!;
  assert.equal(table.size, 3);
  assert.deepEqual([...table.topics.keys()], ["q1", "q2"]);
  const q1 = topicRows(table.topics.get("q1")!);
  assert.deepEqual([...q1], [0, 2]); // q1 comes back after q2: two ranges
  assert.deepEqual([...q1].map((i) => [table.score[i], table.rank[i]]), [[2.5, 1], [1.5, 2]]);
  assert.equal(text.slice(table.start[2], table.end[2]), "d2");
  assert.deepEqual(runTableRows(table).map((r) => [r.run, r.topicId, r.docId]), [
    ["r", "q1", "d1"],
    ["r", "q1", "d2"],
    ["r", "q2", "d7"],
  ]);
  assert.equal(scanRunTable("q1 Q0 d1 1 x r\n", { run: "r" }), undefined);
});

Deno.test("the run-table path gives exactly the row path's values", () => {
  // Random runs with tied scores, duplicates, unsorted lines, unjudged and negative grades;
  // a topic judges fewer documents than it ranks (its judged ids are looked up in the
  // ranking) or more (its ranked ids are looked up in the judgments).
  for (const seed of [3, 4, 5]) {
    const random = seededRandom(seed);
    const rows: RunRow[] = [];
    const qrels: Qrel[] = [];
    let fewer = 0;
    for (let t = 0; t < 40; t++) {
      const ranked = 1 + Math.floor(random() * 70);
      const pool = 10 + Math.floor(random() * 110);
      for (let i = 0; i < ranked; i++) {
        const docId = `d${Math.floor(random() * pool)}`;
        rows.push({
          run: "r",
          topicId: `t${t}`,
          docId,
          rank: i + 1,
          score: Math.floor(random() * 10) / 2,
        });
      }
      let judged = 0;
      const step = 1 + Math.floor(random() * 4);
      for (let d = 0; d < pool; d += 1 + Math.floor(random() * step)) {
        qrels.push({ topicId: `t${t}`, docId: `d${d}`, grade: Math.floor(random() * 5) - 1 });
        judged++;
      }
      if (judged < ranked) fewer++;
    }
    assert.ok(fewer > 5 && fewer < 35, `both cases occur (seed ${seed}: ${fewer} of 40)`);
    const measures = ["P@5", "P@20", "R@50", "AP", "AP@10", "RPrec", "RR", "nDCG@10", "nDCG"];
    for (const order of ["score", "rank"] as const) {
      const direct = evaluate(rows, measures, { qrels }, { order });
      const table = scanRunTable(formatRun(rows), { run: "r" })!;
      const fast = evaluate(table, measures, { qrels }, { order });
      assert.deepEqual(fast.perTopic, direct.perTopic);
      assert.deepEqual(fast.runs, direct.runs);
      assert.ok(direct.runs[0].duplicates > 0);
    }
  }
});

Deno.test("SpanIndex finds spans among many keys, including hash neighbours", () => {
  const keys = Array.from({ length: 5000 }, (_, i) => `doc-${i}`);
  const index = SpanIndex.ofStrings(keys);
  const text = new TextEncoder().encode(" doc-4999 doc-12 doc-5000 ");
  assert.equal(index.find(text, 1, 9), 4999);
  assert.equal(index.find(text, 10, 16), 12);
  assert.equal(index.find(text, 17, 25), -1);
  assert.equal(index.key(12), "doc-12");
  assert.deepEqual(SpanIndex.ofStrings(["a", "b", "a", "c", "a", "b"]).duplicates, [
    [2, 0],
    [4, 0],
    [5, 1],
  ]);
  assert.deepEqual(SpanIndex.ofStrings(["a", "b"]).duplicates, []);
});

Deno.test("a qrels table prepares the same judgments as qrels records", () => {
  // q1 appears in two blocks; grades include negatives.
  const text = "q1 0 a 2\nq1 0 b -1\nq2 0 a 1\nq1 0 c 1\nq2 0 z 3\n";
  const table = scanQrelsTable(text)!;
  assert.deepEqual(
    qrelsTableRows(table),
    parseQrels(text, { file: "q" }).map((q) => ({ ...q, subtopic: "0" })).sort((x, y) =>
      x.topicId < y.topicId ? -1 : 1
    ),
  );
  const rows: RunRow[] = ["a", "b", "c", "z"].flatMap((d, i) => [
    { run: "r", topicId: "q1", docId: d, rank: i + 1, score: 4 - i },
    { run: "r", topicId: "q2", docId: d, rank: i + 1, score: 4 - i },
  ]);
  const measures = ["P@2", "AP", "nDCG@3", "RPrec", "P@oracle"];
  const fromTable = evaluate(rows, measures, { qrelsTable: table }, { oracleGrade: 2 });
  const fromRecords = evaluate(rows, measures, { qrels: parseQrels(text, { file: "q" }) }, {
    oracleGrade: 2,
  });
  assert.deepEqual(fromTable.perTopic, fromRecords.perTopic);
  assert.equal(
    fromTable.perTopic.find((r) => r.topicId === "q1" && r.measure === "P@2")!.value,
    0.5,
  );
  assert.throws(
    () => evaluate(rows, ["P@1"], { qrelsTable: scanQrelsTable("q 0 a 1\nq 0 a 2\n")! }),
    /document "a" is listed twice for topic "q"/,
  );
  assert.equal(scanQrelsTable("q 0 a x\n"), undefined);
});

Deno.test("scanRunTable reads irregular spacing like single spaces", () => {
  const plain = "q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.5 r\n";
  const irregular = "q1\tQ0 d1  1 2.5 r\r\n  q1 Q0 d2 2 1.5 r \n";
  const a = runTableRows(scanRunTable(plain, { run: "r" })!);
  const b = runTableRows(scanRunTable(irregular, { run: "r" })!);
  assert.deepEqual(b, a);
  // One irregular line in an otherwise plain file takes the general path for that line.
  assert.deepEqual(
    runTableRows(scanRunTable("q1 Q0 d1 1 2.5 r\nq1  Q0 d2 2 1.5 r\n", { run: "r" })!),
    a,
  );
  assert.equal(scanRunTable("q1 Q0 d1 1 2.5 r x\n", { run: "r" }), undefined);
  assert.equal(scanRunTable("q1 Q0 d1 1 2.5\n", { run: "r" }), undefined);
});

/** A random run or qrels line: odd separators, number spellings and ids, as the strict parser reads them. */
function randomLines(random: () => number, columns: number, lines: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const separators = [" ", " ", " ", "  ", "\t", " \t", "\u00a0", "\u3000", "\u2009", "\v", "\f"];
  const ids = ["d1", "d10", "D1", "dé", "d\u00e9", "日本", "a#b", "x:y#3", "\u00ff", "d\u0085"];
  const numbers = ["1", "-2", "+3", "0", "-0", "2.5", "5.", ".5", "-.25", "1e3", "2E-2", "1e300"];
  const digits = () =>
    String(Math.floor(random() * 1e9)) + "." + String(Math.floor(random() * 1e9));
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const cols = columns === 6
      ? [
        pick(["q1", "q2", "q1"]),
        "Q0",
        pick(ids),
        pick(["1", "0", "+3", "007", "-0"]), // ranks are integers from 0
        random() < 0.3 ? digits() : pick(numbers),
        pick(["r", "s"]),
      ]
      : [
        pick(["q1", "q2", "q1"]),
        pick(["0", "1", "x"]),
        pick(ids),
        pick(["0", "1", "2", "-1", "+2", "12"]),
      ];
    const lead = random() < 0.1 ? pick(separators) : "";
    const trail = random() < 0.1 ? pick([...separators, "\r"]) : "";
    out.push(lead + cols.map((c, k) => (k ? pick(separators) : "") + c).join("") + trail);
    if (random() < 0.05) out.push(pick(["", " ", "\r", "\t \u00a0"]));
  }
  return (random() < 0.5 ? "\ufeff" : "") + out.join(pick(["\n", "\r\n"])) +
    (random() < 0.5 ? "\n" : "");
}

Deno.test("the byte scanners read exactly what the strict parsers read", () => {
  const random = seededRandom(11);
  let comparedQrels = 0;
  for (let trial = 0; trial < 200; trial++) {
    const run = randomLines(random, 6, 30);
    const table = scanRunTable(run)!;
    assert.ok(table, JSON.stringify(run));
    const strict = parseRun(run, { file: "x.run" });
    assert.equal(table.run, strict[0].run);
    const byTopic = (rows: RunRow[]) =>
      rows.map((r) => ({ ...r, run: "r" })).sort((
        a,
        b,
      ) => (a.topicId < b.topicId ? -1 : a.topicId > b.topicId ? 1 : 0));
    assert.deepEqual(byTopic(runTableRows(table)), byTopic(strict), JSON.stringify(run));
    // Qrels repeating a (topic, iteration, docid) are the strict parser's to judge
    // (dropped when identical, an error otherwise); compare files without repeats.
    const qrels = randomLines(random, 4, 8);
    let repeats = 0;
    let parsed: Qrel[];
    try {
      parsed = parseQrels(qrels, { file: "q", onDuplicates: (n) => (repeats = n) });
    } catch {
      continue;
    }
    if (repeats) continue;
    comparedQrels++;
    const strictQrels = parsed.map((q) => ({ ...q, subtopic: "0" }));
    const byTopicQ = (rows: Qrel[]) =>
      rows.sort((a, b) => (a.topicId < b.topicId ? -1 : a.topicId > b.topicId ? 1 : 0));
    assert.deepEqual(byTopicQ(qrelsTableRows(scanQrelsTable(qrels)!)), byTopicQ(strictQrels));
  }
  assert.ok(comparedQrels > 50, `${comparedQrels} qrels files compared`);
  // Bytes and text give the same table.
  const text = "q1 Q0 d\u00e9 1 2.5 r\nq1\u3000Q0 d2 2 1 r\n";
  assert.deepEqual(
    runTableRows(scanRunTable(new TextEncoder().encode(text))!),
    runTableRows(scanRunTable(text)!),
  );
});

Deno.test("the byte scanners give up where the strict parsers complain", () => {
  for (
    const bad of [
      "q1 Q0 d1 1 2.5\n",
      "q1 Q0 d1 1 2.5 r extra\n",
      "q1 Q0 d1 one 2.5 r\n",
      "q1 Q0 d1 1.5 2.5 r\n",
      "q1 Q0 d1 - 2.5 r\n",
      "q1 Q0 d1 1 0x10 r\n",
      "q1 Q0 d1 1 Infinity r\n",
      "q1 Q0 d1 1 . r\n",
      "q1 Q0 d1 1 1.2.3 r\n",
      "q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 2,5 r\n",
    ]
  ) {
    assert.equal(scanRunTable(bad), undefined, bad);
    assert.throws(() => parseRun(bad, { file: "x.run" }), Error, bad);
  }
  for (const bad of ["q1 0 d1\n", "q1 0 d1 2 3\n", "q1 0 d1 2.5\n", "q1 0 d1 +\n"]) {
    assert.equal(scanQrelsTable(bad), undefined, bad);
    assert.throws(() => parseQrels(bad, { file: "q" }), Error, bad);
  }
  assert.equal(scanRunTable("")!.size, 0);
  assert.equal(scanRunTable("\n \n")!.size, 0);
});

Deno.test("ties, signed zeros and huge scores rank as in the row path", () => {
  // Scores equal as numbers (0 and -0, 1e300 and 1.0e300, 2.5 and 2.50) tie and
  // fall back to the document id; nearly equal scores do not. (1e400 overflows and
  // is an error in both paths.)
  const scores = [
    "0",
    "-0",
    "1e300",
    "1.0e300",
    "-1.7976931348623157e308",
    "2.5",
    "2.50",
    "5e-324",
    "-5e-324",
    "1e-300",
  ];
  const rows: RunRow[] = [];
  const qrels: Qrel[] = [];
  scores.forEach((s, i) => {
    for (const id of [`a${i}`, `b${i}`, `\u00e9${i}`]) {
      rows.push({ run: "r", topicId: "t", docId: id, rank: i + 1, score: Number(s) });
      qrels.push({ topicId: "t", docId: id, grade: (i + id.length) % 3 });
    }
  });
  const text = rows.map((r, i) => `t Q0 ${r.docId} ${r.rank} ${scores[Math.floor(i / 3)]} r`)
    .reverse().join("\n");
  const measures = ["P@5", "AP", "nDCG@7", "RR", "R@10"];
  for (const order of ["score", "rank"] as const) {
    const direct = evaluate(rows, measures, { qrels }, { order });
    const fast = evaluate(scanRunTable(text)!, measures, { qrels }, { order });
    assert.deepEqual(fast.perTopic, direct.perTopic, order);
  }
});

Deno.test("scores that overflow and ranks outside int32 are left to the strict parser's errors", async () => {
  assert.equal(scanRunTable("q1 Q0 d1 1 1e400 r\n"), undefined);
  assert.equal(scanRunTable("q1 Q0 d1 99999999999 1 r\n"), undefined);
  const { parseRun } = await import("@lib/formats/mod.ts");
  assert.throws(
    () => parseRun("q1 Q0 d1 1 1e400 r\n", { file: "x.run" }),
    /x\.run:1: score: 1e400 is out of range \(overflows a 64-bit float\)/,
  );
  assert.throws(
    () => parseRun("q1 Q0 d1 99999999999 1 r\n", { file: "x.run" }),
    /x\.run:1: rank: 99999999999 is out of range \(-2147483648 to 2147483647\)/,
  );
});

/** Bytes of text parts (UTF-8) and raw byte lists, in order. */
function bytes(...parts: (string | number[])[]): Uint8Array {
  const enc = new TextEncoder();
  return new Uint8Array(parts.flatMap((p) => typeof p === "string" ? [...enc.encode(p)] : p));
}

Deno.test("scanRunTable rejects invalid UTF-8 on any line it reads, and keeps valid non-ASCII ids", () => {
  // A document id with a stray byte (single spaces), a tab-separated line with a
  // bad continuation, a cut character at the very end.
  assert.equal(scanRunTable(bytes("q1 Q0 d1 1 2 r\nq1 Q0 d", [0xff], " 2 1 r\n")), undefined);
  assert.equal(scanRunTable(bytes("q1\tQ0\td", [0xc3, 0x28], "\t1\t2\tr\n")), undefined);
  assert.equal(scanRunTable(bytes("q1 Q0 d1 1 2 r", [0xe2, 0x82])), undefined);
  const ok = scanRunTable(bytes("q1 Q0 é 1 2 r\nq1\tQ0\t日本\t2\t1\tr\n"))!;
  assert.equal(ok.size, 2);
  assert.deepEqual(runTableRows(ok).map((r) => r.docId), ["é", "日本"]);
});

Deno.test("scanQrelsTable rejects invalid UTF-8 on any line it reads, and keeps valid non-ASCII ids", () => {
  assert.equal(scanQrelsTable(bytes("q1 0 d1 1\nq1 0 d", [0xff], " 2\n")), undefined);
  assert.equal(scanQrelsTable(bytes("q1\t0\td", [0xed, 0xa0, 0x80], "\t1\n")), undefined); // a surrogate
  const ok = scanQrelsTable(bytes("q1 0 é 1\nq1\t0\t日本\t2\n"))!;
  assert.deepEqual(qrelsTableRows(ok).map((q) => [q.docId, q.grade]), [["é", 1], ["日本", 2]]);
});
