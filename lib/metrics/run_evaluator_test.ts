import assert from "node:assert/strict";
import { evaluate } from "./evaluate.ts";
import { prepareJudged } from "./judged.ts";
import { RunEvaluator } from "./run_evaluator.ts";
import { runTableChunks } from "./run_table_chunks.ts";
import { scanRunTable } from "./run_table.ts";
import { seededRandom } from "./seeded_random.ts";

/** Splits text into chunks of whole lines of about `size` bytes, as a chunk reader does. */
function chunksOf(text: string, size: number) {
  const bytes = new TextEncoder().encode(text);
  const out: { bytes: Uint8Array; offset: number }[] = [];
  let at = 0;
  while (at < bytes.length) {
    let end = Math.min(bytes.length, at + size);
    if (end < bytes.length) end = bytes.lastIndexOf(10, end - 1) + 1 || bytes.length;
    if (end <= at) end = bytes.indexOf(10, at) + 1 || bytes.length;
    out.push({ bytes: bytes.slice(at, end), offset: at });
    at = end;
  }
  return out;
}

function data(seed: number) {
  const random = seededRandom(seed);
  const run: string[] = [];
  const qrels = [];
  for (let t = 0; t < 12; t++) {
    const depth = 1 + Math.floor(random() * 30);
    for (let r = 0; r < depth; r++) {
      const doc = `d${Math.floor(random() * 40)}`; // repeats within a topic happen
      run.push(`q${t} Q0 ${doc} ${r + 1} ${Math.floor(random() * 8) / 4} tag`);
    }
    if (t % 5 !== 4) { // some run topics are not judged
      for (let d = 0; d < 40; d += 3) {
        qrels.push({ topicId: `q${t}`, docId: `d${d}`, grade: Math.floor(random() * 3) });
      }
    }
  }
  qrels.push({ topicId: "q99", docId: "d1", grade: 1 }); // judged, not in the run
  return { text: run.join("\n") + "\n", judged: prepareJudged({ qrels }) };
}

const MEASURES = ["AP", "nDCG@10", "P@5", "R@20", "RR", "judged@10"];

Deno.test("RunEvaluator over chunks of any size equals evaluate on the whole run", async () => {
  for (const seed of [1, 2, 3]) {
    const { text, judged } = data(seed);
    for (const complete of [false, true]) {
      const whole = evaluate(scanRunTable(text)!, MEASURES, judged, { complete });
      for (const size of [20, 64, 300, 1 << 20]) {
        const evaluator = new RunEvaluator(MEASURES, judged, { complete });
        let tables = 0;
        for await (const c of runTableChunks(chunksOf(text, size))) {
          assert.equal(evaluator.add(c.table!), undefined);
          tables++;
        }
        if (size === 20) assert.ok(tables >= 12, `${tables} tables`); // one topic per table
        assert.deepEqual(evaluator.finish(), whole, `seed ${seed}, chunks of ${size} bytes`);
      }
    }
  }
});

Deno.test("RunEvaluator names a topic that comes back after other topics", async () => {
  const judged = prepareJudged({ qrels: [{ topicId: "a", docId: "d1", grade: 1 }] });
  const evaluator = new RunEvaluator(["P@5"], judged);
  const text = "a Q0 d1 1 2 r\nb Q0 d1 1 2 r\na Q0 d2 2 1 r\n";
  const found = [];
  for await (const c of runTableChunks(chunksOf(text, 14))) found.push(evaluator.add(c.table!));
  assert.deepEqual(found, [undefined, undefined, "a"]);
});

Deno.test("runTableChunks hands a chunk with a malformed line over, with its file offset", async () => {
  const text = "a Q0 d1 1 2 r\nb Q0 d1 x 2 r\n";
  const out = [];
  for await (const c of runTableChunks(chunksOf(text, 14))) out.push(c);
  assert.equal(out.length, 2);
  assert.equal(out[0].table?.size, 1);
  const bad = out[1];
  assert.ok(bad.malformed);
  assert.equal(bad.offset, 14);
  assert.equal(new TextDecoder().decode(bad.malformed), "b Q0 d1 x 2 r\n");
});

Deno.test("a run already in trec_eval's order ranks as a sorted one: ties by document id descending", () => {
  const qrels = [
    { topicId: "q1", docId: "a", grade: 1 },
    { topicId: "q2", docId: "c", grade: 2 },
  ];
  const judged = prepareJudged({ qrels });
  // q1: equal scores, a before b in the file: trec_eval ranks b (the larger id) first, so a is 2nd.
  // q2: written in trec_eval's order (tie c > b by id, then a lower score): c is 1st.
  // q3 (unjudged) and q2's -0/0 tie: equal scores whatever their sign.
  const text = "q1 Q0 a 1 1.0 r\nq1 Q0 b 2 1.0 r\n" +
    "q2 Q0 c 1 2.0 r\nq2 Q0 b 2 2.0 r\nq2 Q0 a 3 0 r\nq2 Q0 d 4 -0 r\n";
  const evaluator = new RunEvaluator(["RR", "AP", "P@1"], judged);
  evaluator.add(scanRunTable(text)!);
  const rows = evaluator.finish().perTopic.map((r) => `${r.topicId} ${r.measure} ${r.value}`);
  assert.deepEqual(rows, [
    "q1 RR 0.5",
    "q1 AP 0.5",
    "q1 P@1 0",
    "q2 RR 1",
    "q2 AP 1",
    "q2 P@1 1",
  ]);
  // q2's last two rows tie at 0 and -0: d ranks above a (ids descending), as when sorted.
  const sorted = evaluate(scanRunTable("q2 Q0 a 3 0 r\nq2 Q0 d 4 -0 r\n")!, ["RR"], {
    qrels: [{ topicId: "q2", docId: "d", grade: 1 }],
  });
  assert.equal(sorted.runs[0].aggregate["RR"], 1);
  const inOrder = evaluate(scanRunTable("q2 Q0 d 4 -0 r\nq2 Q0 a 3 0 r\n")!, ["RR"], {
    qrels: [{ topicId: "q2", docId: "d", grade: 1 }],
  });
  assert.equal(inOrder.runs[0].aggregate["RR"], 1);
});

Deno.test("perTopicMeasures lists the per-topic values of those measures only; averages are unchanged", () => {
  const qrels = [{ topicId: "q1", docId: "d1", grade: 1 }, {
    topicId: "q2",
    docId: "d2",
    grade: 1,
  }];
  const text = "q1 Q0 d1 1 2 r\nq1 Q0 d3 2 1 r\nq2 Q0 d3 1 2 r\nq2 Q0 d2 2 1 r\n";
  const all = evaluate(scanRunTable(text)!, ["RR", "P@2"], { qrels });
  const some = evaluate(scanRunTable(text)!, ["RR", "P@2"], { qrels }, {
    perTopicMeasures: ["P@2"],
  });
  assert.deepEqual(some.perTopic.map((r) => `${r.topicId} ${r.measure} ${r.value}`), [
    "q1 P@2 0.5",
    "q2 P@2 0.5",
  ]);
  assert.equal(all.perTopic.length, 4);
  assert.deepEqual(some.runs[0].aggregate, { RR: 0.75, "P@2": 0.5 });
  assert.deepEqual(some.runs[0].aggregate, all.runs[0].aggregate);
  const evaluator = new RunEvaluator(["RR", "P@2"], prepareJudged({ qrels }), {
    perTopicMeasures: [],
  });
  evaluator.add(scanRunTable(text)!);
  const streamed = evaluator.finish();
  assert.deepEqual(streamed.perTopic, []);
  assert.deepEqual(streamed.runs[0].counts, { RR: 2, "P@2": 2 });
});

Deno.test("runs written in trec_eval's order, with ties and repeats, rank as the record evaluator ranks them", () => {
  // The record path (RunRow[]) sorts every topic; the column path skips the sort when a topic
  // is already in order. Both must agree on every topic, sorted in the file or not.
  for (const seed of [4, 5, 6, 7]) {
    const random = seededRandom(seed);
    const rows: { topicId: string; docId: string; score: number }[] = [];
    const qrels = [];
    for (let t = 0; t < 20; t++) {
      const topic: typeof rows = [];
      const depth = 1 + Math.floor(random() * 25);
      for (let r = 0; r < depth; r++) {
        const docId = `d${Math.floor(random() * 30)}`;
        topic.push({ topicId: `q${t}`, docId, score: Math.floor(random() * 4) / 2 });
      }
      // Half the topics in trec_eval's order (score descending, then id descending), a quarter
      // by score with ties the other way (not in order), a quarter as drawn.
      const byId = (a: { docId: string }, b: { docId: string }) =>
        a.docId < b.docId ? 1 : a.docId > b.docId ? -1 : 0;
      if (t % 4 < 2) topic.sort((a, b) => b.score - a.score || byId(a, b));
      else if (t % 4 === 2) topic.sort((a, b) => b.score - a.score || byId(b, a));
      rows.push(...topic);
      for (let d = 0; d < 30; d += 2) {
        qrels.push({ topicId: `q${t}`, docId: `d${d}`, grade: Math.floor(random() * 3) });
      }
    }
    const judged = prepareJudged({ qrels });
    const text = rows.map((r, i) => `${r.topicId} Q0 ${r.docId} ${i + 1} ${r.score} tag`)
      .join("\n") + "\n";
    const records = rows.map((r, i) => ({ run: "tag", ...r, rank: i + 1 }));
    const columns = evaluate(scanRunTable(text)!, MEASURES, judged);
    const sorted = evaluate(records, MEASURES, judged);
    assert.deepEqual(columns.perTopic, sorted.perTopic, `seed ${seed}`);
    assert.deepEqual(columns.runs[0].aggregate, sorted.runs[0].aggregate);
  }
});
