import assert from "node:assert/strict";
import { join } from "node:path";
import { FILE_MEMO, rememberByFile } from "./_file_memo.ts";

const sha256 = async (path: string) => {
  const d = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
};

Deno.test("rememberByFile computes once per file identity and again after the file changes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const input = join(dir, "answers.jsonl");
    await Deno.writeTextFile(input, "abc");
    let calls = 0;
    const counted = (p: string) => (calls++, sha256(p));
    const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    assert.deepStrictEqual(await rememberByFile(input, "sha256", counted, dir), abc);
    assert.deepStrictEqual(await rememberByFile(input, "sha256", counted, dir), abc);
    assert.deepStrictEqual(calls, 1);
    // Another kind of value of the same file is computed separately.
    assert.deepStrictEqual(
      await rememberByFile(input, "length", (p) => Deno.readFile(p).then((b) => b.length), dir),
      3,
    );
    // The memo file holds both, keyed by kind and absolute path.
    const memo = JSON.parse(await Deno.readTextFile(join(dir, FILE_MEMO)));
    assert.deepStrictEqual(memo[`sha256\u0000${input}`].value, abc);
    assert.deepStrictEqual(memo[`length\u0000${input}`].value, 3);
    await Deno.writeTextFile(input, "abcd");
    assert.deepStrictEqual(
      await rememberByFile(input, "sha256", counted, dir),
      "88d4266fd4e6338d13b845fcf289579d209c897823b9217da3e161936f031589",
    );
    assert.deepStrictEqual(calls, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rememberByFile without a memo folder, or with a missing one, always computes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const input = join(dir, "run.txt");
    await Deno.writeTextFile(input, "abc");
    let calls = 0;
    const counted = (p: string) => (calls++, sha256(p));
    await rememberByFile(input, "sha256", counted);
    await rememberByFile(input, "sha256", counted);
    await rememberByFile(input, "sha256", counted, join(dir, "missing"));
    await rememberByFile(input, "sha256", counted, join(dir, "missing"));
    assert.deepStrictEqual(calls, 4);
    assert.deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["run.txt"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
