import assert from "node:assert/strict";
import { join } from "node:path";
import { inputError } from "./_testing.ts";
import { formatRun, parseRun, readRun, writeRun } from "./trec_run.ts";

Deno.test("parseRun reads 6 columns, skips empty lines and ignores the Q0 column", () => {
  const text = "duc-0 Q0 duc-0:1#3 1 14.21 bm25\n\n  \nduc-0\tx\tduc-0:0#0\t2\t-3e-2\tbm25\r\n";
  assert.deepEqual(parseRun(text, { file: "a.run" }), [
    { run: "bm25", topicId: "duc-0", docId: "duc-0:1#3", rank: 1, score: 14.21 },
    { run: "bm25", topicId: "duc-0", docId: "duc-0:0#0", rank: 2, score: -0.03 },
  ]);
  assert.equal(parseRun("q Q0 d 1 1 tag\n", { file: "a", run: "mine" })[0].run, "mine");
});

Deno.test("parseRun lists every bad line with file, line and field", () => {
  const text = ["q1 Q0 d1 1 2.0 r", "q1 Q0 d2 2 r", "q1 Q0 d3 x 1.0 r", "q1 Q0 d4 4 high r"].join(
    "\n",
  );
  const e = inputError(() => parseRun(text, { file: "x.run" }));
  assert.equal(
    e.message,
    [
      "x.run:2: expected 6 columns (topic Q0 docid rank score tag), found 5",
      'x.run:3: rank: expected an integer, found "x"',
      'x.run:4: score: expected a number, found "high"',
    ].join("\n"),
  );
  assert.deepEqual(e.problems.map((p) => [p.line, p.field]), [[2, undefined], [3, "rank"], [
    4,
    "score",
  ]]);
});

Deno.test("parseRun caps the listed problems at 50 and says how many more", () => {
  const text = "bad\n".repeat(60);
  const error = inputError(() => parseRun(text, { file: "x.run" }));
  assert.equal(error.problems.length, 50);
  assert.equal(error.total, 60);
  assert.match(error.message.split("\n").at(-1)!, /and 10 more problems/);
});

Deno.test("formatRun, writeRun and readRun round-trip; bad ids are refused", async () => {
  const rows = [
    { run: "r", topicId: "t", docId: "t:0#1", rank: 1, score: 0.1 + 0.2 },
    { run: "r", topicId: "t", docId: "t:0#0", rank: 2, score: 0 },
  ];
  assert.equal(formatRun(rows), "t Q0 t:0#1 1 0.30000000000000004 r\nt Q0 t:0#0 2 0 r\n");
  const path = join(await Deno.makeTempDir(), "r.run");
  await writeRun(path, rows);
  assert.deepEqual(await readRun(path), rows);
  assert.throws(() => formatRun([{ ...rows[0], docId: "a b" }]), /docId "a b"/);
  await assert.rejects(() => readRun(path + ".missing"), /no such file/);
});

Deno.test("an empty run file is an error naming the file", async () => {
  assert.equal(
    inputError(() => parseRun("", { file: "x.run" })).message,
    'x.run: the file is empty; expected "topic Q0 docid rank score tag" lines',
  );
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "empty.run");
    await Deno.writeTextFile(path, "\r\n\n");
    await assert.rejects(
      () => readRun(path),
      {
        name: "InputError",
        message: `${path}: the file is empty; expected "topic Q0 docid rank score tag" lines`,
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
