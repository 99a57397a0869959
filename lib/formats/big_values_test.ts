/**
 * Tests of the limits on one line and on one text: a line or a file read whole
 * over its limit is refused at once, naming the file, the line and the size,
 * without reading it into memory.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { InputError } from "./input_error.ts";
import { MAX_LINE_BYTES, MAX_TEXT_BYTES, readLines, readText } from "./_lines.ts";
import { readJsonl } from "./jsonl.ts";
import { readCorpus } from "./crux_corpus.ts";
import { readJudgments } from "./crux_judgments.ts";
import { readNuggetAssignments } from "./nugget_assignments.ts";
import { readDecompositions } from "./typed_subquestions.ts";
import { LineChunks } from "./line_chunks.ts";

async function lines(path: string, maxLineBytes?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const line of readLines(path, { maxLineBytes })) out.push(line);
  return out;
}

/** Awaits `p` and returns the problems of the `InputError` it rejects with. */
async function problemsOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (error) {
    assert.ok(error instanceof InputError, String(error));
    return error.problems;
  }
  assert.fail("expected an InputError");
}

Deno.test("readLines: a line over the limit is refused naming file, line and limit; lines at it are read", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "x.jsonl");
  // Line 3 has 101 bytes, one over a limit of 100; lines 1 and 2 have exactly 100 and 5.
  await Deno.writeTextFile(path, "a".repeat(100) + "\nb\u00e9cd\n" + "c".repeat(101) + "\nd\n");
  const problems = await problemsOf(lines(path, 100));
  assert.deepEqual(problems, [{
    file: path,
    line: 3,
    message: "line longer than 100 bytes (the limit of a line); is this a text file of one " +
      "record per line?",
  }]);
  // "bécd" is 5 bytes (é takes two), so the limit counts bytes, not characters.
  assert.deepEqual(await lines(path, 101), ["a".repeat(100), "b\u00e9cd", "c".repeat(101), "d"]);
  // Also the file's last line without its LF, and a line longer than a 1 MiB read.
  await Deno.writeTextFile(path, "ok\n" + "x".repeat((3 << 20) + 7));
  assert.equal((await problemsOf(lines(path, 3 << 20)))[0].line, 2);
  assert.deepEqual((await lines(path, (3 << 20) + 7)).map((l) => l.length), [2, (3 << 20) + 7]);
});

Deno.test("readLines: a line longer than the look-ahead but within the limit is read whole", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "long.jsonl");
  // 9 MiB on one line, then a short line: over the 4 MiB look-ahead, under a 10 MiB limit.
  const long = "y".repeat(9 << 20);
  await Deno.writeTextFile(path, `${long}\r\nlast\n`);
  const got = await lines(path, 10 << 20);
  assert.deepEqual([got.length, got[0].length, got[0] === long, got[1]], [
    2,
    9 << 20,
    true,
    "last",
  ]);
  // With an 8 MiB limit the look-ahead finds the line too long before reading it all.
  assert.equal((await problemsOf(lines(path, 8 << 20)))[0].line, 1);
});

Deno.test("readText: a file over the limit is refused before it is read, naming its size", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "doc.json");
  await Deno.writeTextFile(path, '{"a": [1, 2, 3]}');
  assert.equal(await readText(path, { maxBytes: 16 }), '{"a": [1, 2, 3]}');
  const problems = await problemsOf(readText(path, { maxBytes: 15 }));
  assert.equal(problems[0].file, path);
  assert.equal(problems[0].line, 0);
  assert.match(
    problems[0].message,
    /^the file is 16 bytes, more than the 15 bytes a file read whole/,
  );
});

Deno.test("a 2 GiB one-line file is refused within 2 s and 200 MB by every reader, naming it", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "big.jsonl");
  // A sparse file: 2 GiB of zero bytes that take no disk.
  await Deno.writeFile(path, new Uint8Array());
  await Deno.truncate(path, 2 ** 31);
  const readers: [string, () => Promise<unknown>][] = [
    ["readJsonl", () => readJsonl(path)],
    ["readCorpus (import crux --corpus)", () => readCorpus(path)],
    ["readJudgments (eval --judgments)", () => readJudgments(path)],
    ["readNuggetAssignments (nuggets score)", () => readNuggetAssignments(path)],
    ["readDecompositions (one JSON document)", () => readDecompositions(path)],
    ["LineChunks (eval --run, import run)", async () => {
      for await (const _ of new LineChunks(path)) { /* no line ends */ }
    }],
  ];
  for (const [name, read] of readers) {
    const rss = Deno.memoryUsage().rss;
    const started = performance.now();
    const problems = await problemsOf(read());
    const seconds = (performance.now() - started) / 1000;
    const grown = (Deno.memoryUsage().rss - rss) / 1e6;
    assert.ok(seconds < 2, `${name}: ${seconds.toFixed(2)} s`);
    assert.ok(grown < 200, `${name}: ${grown.toFixed(0)} MB`);
    assert.equal(problems[0].file, path, name);
    assert.match(
      problems[0].message,
      new RegExp(
        `^line longer than ${MAX_LINE_BYTES} bytes|^the file is ${
          2 ** 31
        } bytes, more than the ${MAX_TEXT_BYTES} bytes`,
      ),
      name,
    );
    if (problems[0].line !== 0) assert.equal(problems[0].line, 1, name);
  }
});

Deno.test("readLines: a byte-order mark is dropped at the start of the file only", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "bom.jsonl");
  await Deno.writeTextFile(path, "\ufeffa\n\ufeffb\n");
  assert.deepEqual(await lines(path), ["a", "\ufeffb"]);
  await Deno.writeTextFile(path, "\n\ufeffb\n");
  assert.deepEqual(await lines(path), ["", "\ufeffb"]);
});
