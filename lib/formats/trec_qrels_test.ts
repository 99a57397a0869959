import assert from "node:assert/strict";
import { join } from "node:path";
import { inputError } from "./_testing.ts";
import { formatQrels, parseQrels, readQrels, writeQrels } from "./trec_qrels.ts";

Deno.test("parseQrels keeps the iteration column as the subtopic", () => {
  assert.deepEqual(parseQrels("t1 0 d1 2\n\nt1 3 t1:0#4 1\n", { file: "q" }), [
    { topicId: "t1", docId: "d1", grade: 2, subtopic: "0" },
    { topicId: "t1", docId: "t1:0#4", grade: 1, subtopic: "3" },
  ]);
});

Deno.test("parseQrels reports wrong column counts and non-integer grades", () => {
  const error = inputError(() => parseQrels("t 0 d\nt 0 d 1.5\nt 0 d 1\n", { file: "q.txt" }));
  assert.equal(
    error.message,
    'q.txt:1: expected 4 columns (topic iteration docid grade), found 3\nq.txt:2: grade: expected an integer, found "1.5"',
  );
});

Deno.test("formatQrels writes subtopic 0 by default and round-trips through a file", async () => {
  const qrels = [{ topicId: "t", docId: "t:0#0", grade: 3 }, {
    topicId: "t",
    docId: "t:0#1",
    grade: 1,
    subtopic: "2",
  }];
  assert.equal(formatQrels(qrels), "t 0 t:0#0 3\nt 2 t:0#1 1\n");
  const path = join(await Deno.makeTempDir(), "x_qrels_pr.txt");
  await writeQrels(path, qrels);
  assert.deepEqual(await readQrels(path), [{ ...qrels[0], subtopic: "0" }, qrels[1]]);
  assert.throws(
    () => formatQrels([{ topicId: "t", docId: "d", grade: 0.5 }]),
    /grades must be integers/,
  );
});

Deno.test("an empty qrels file is an error naming the file", async () => {
  assert.equal(
    inputError(() => parseQrels("\n  \n", { file: "q.txt" })).message,
    'q.txt: the file is empty; expected "topic iteration docid grade" lines',
  );
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "empty.qrels");
    await Deno.writeTextFile(path, "");
    await assert.rejects(
      () => readQrels(path),
      {
        name: "InputError",
        message: `${path}: the file is empty; expected "topic iteration docid grade" lines`,
      },
    );
    await assert.rejects(
      () => readQrels(dir),
      {
        name: "IsADirectory",
        message: `Cannot read "${dir}": it is a folder, not a file; give the path of a file in it`,
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
