import assert from "node:assert/strict";
import { join } from "node:path";
import { rememberByFile } from "./_file_memo.ts";
import { openWorkspace, readMemo } from "@lib/store/mod.ts";

const sha256 = async (path: string) => {
  const d = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
};

Deno.test("rememberByFile computes once per file identity, in the workspace's memo, and again after the file changes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    (await openWorkspace(dir)).close();
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
    // The memo holds both, keyed by kind and absolute path; no file beside the workspace.
    const ws = await openWorkspace(dir, { readOnly: true });
    const memo = await readMemo(ws, "file");
    ws.close();
    assert.deepStrictEqual([...memo.keys()], [
      JSON.stringify(["length", input]),
      JSON.stringify(["sha256", input]),
    ]);
    assert.deepStrictEqual(memo.get(JSON.stringify(["sha256", input]))?.payload, abc);
    assert.deepStrictEqual(memo.get(JSON.stringify(["length", input]))?.payload, 3);
    assert.deepStrictEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
      ["answers.jsonl", "workspace.duckdb"],
    );
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

Deno.test("rememberByFile uses the workspace this process holds open", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const input = join(dir, "run.txt");
    await Deno.writeTextFile(input, "abc");
    let calls = 0;
    const counted = (p: string) => (calls++, sha256(p));
    await rememberByFile(input, "sha256", counted, dir);
    await rememberByFile(input, "sha256", counted, dir);
    assert.deepStrictEqual(calls, 1);
    assert.deepStrictEqual([...(await readMemo(ws, "file")).keys()], [
      JSON.stringify(["sha256", input]),
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rememberByFile without a workspace folder, or with a folder without a workspace, always computes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const input = join(dir, "run.txt");
    await Deno.writeTextFile(input, "abc");
    let calls = 0;
    const counted = (p: string) => (calls++, sha256(p));
    await rememberByFile(input, "sha256", counted);
    await rememberByFile(input, "sha256", counted);
    await rememberByFile(input, "sha256", counted, dir);
    await rememberByFile(input, "sha256", counted, join(dir, "missing"));
    assert.deepStrictEqual(calls, 4);
    assert.deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["run.txt"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
