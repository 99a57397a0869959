import assert from "node:assert/strict";
import { parseQrels, parseRun } from "@lib/formats/mod.ts";
import { scanQrels, scanRun } from "./scan_trec.ts";
import { seededRandom } from "./seeded_random.ts";

const RUN =
  "\ufeffq1 Q0 d1 1 2.5 bm25\r\n\n  q1\tQ0  d2 2 -1e-3 bm25  \nq2 Q0 d1 1 +.5 other\nq2 Q0 d3 0 7 other";

Deno.test("scanRun agrees with the strict parser on well-formed runs", () => {
  const rows = scanRun(RUN)!;
  assert.deepEqual(rows, [
    { run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 },
    { run: "bm25", topicId: "q1", docId: "d2", rank: 2, score: -0.001 },
    { run: "other", topicId: "q2", docId: "d1", rank: 1, score: 0.5 },
    { run: "other", topicId: "q2", docId: "d3", rank: 0, score: 7 },
  ]);
  assert.deepEqual(rows, parseRun(RUN, { file: "x.run" }));
  assert.deepEqual(scanRun(RUN, { run: "r" })!.map((r) => r.run), ["r", "r", "r", "r"]);
  assert.deepEqual(scanRun(""), []);
});

Deno.test("scanRun gives up on anything the strict parser would question", () => {
  for (
    const bad of [
      "q1 Q0 d1 1 2.5\n", // 5 columns
      "q1 Q0 d1 1 2.5 r extra\n",
      "q1 Q0 d1 one 2.5 r\n",
      "q1 Q0 d1 1.5 2.5 r\n",
      "q1 Q0 d1 1 0x10 r\n",
      "q1 Q0 d1 1 Infinity r\n",
      "q1 Q0 d1 1 - r\n",
      "q1 Q0 d1\u00a0x 1 2 r\n", // a no-break space splits columns for \s
    ]
  ) {
    assert.equal(scanRun(bad), undefined, bad);
    assert.throws(() => parseRun(bad, { file: "x.run" }), Error, bad);
  }
});

Deno.test("scanQrels agrees with the strict parser and reuses subtopics", () => {
  const text = "q1 0 d1 2\nq1 0 d2 0\nq2 3 d1 1\n\nq2 3 d9 -1\n";
  assert.deepEqual(scanQrels(text), parseQrels(text, { file: "q.txt" }));
  assert.deepEqual(scanQrels(text)![2], { topicId: "q2", subtopic: "3", docId: "d1", grade: 1 });
  assert.equal(scanQrels("q1 0 d1 2.5\n"), undefined);
  assert.equal(scanQrels("q1 0 d1\n"), undefined);
});

Deno.test("fast decimal parsing equals Number() exactly", () => {
  const random = seededRandom(17);
  const samples = [
    "0",
    "-0",
    "+.5",
    "5.",
    "12.3456",
    "0.1",
    "0.30000000000000004",
    "123456789012345",
    "1e3",
    "-7.25e-2",
  ];
  for (let i = 0; i < 20000; i++) {
    const digits = Math.floor(random() * 15) + 1;
    const raw = String(Math.floor(random() * 10 ** digits)).padStart(digits, "0");
    const point = Math.floor(random() * (raw.length + 1));
    samples.push((random() < 0.3 ? "-" : "") + raw.slice(0, point) + "." + raw.slice(point));
  }
  for (const s of samples) {
    if (s === "." || s === "-.") continue;
    const line = `q Q0 d 1 ${s} r`;
    assert.equal(scanRun(line)![0].score, Number(s), s);
  }
  assert.equal(scanRun("q Q0 d 1 . r"), undefined);
});
