import assert from "node:assert/strict";
import { join } from "node:path";
import { writeAtomic } from "./write_atomic.ts";

Deno.test("writeAtomic replaces the file in one step and leaves no temporary file", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "out.txt");
  await Deno.writeTextFile(path, "old");
  await writeAtomic(path, ["a", "b", "c"]);
  assert.equal(await Deno.readTextFile(path), "abc");
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["out.txt"]);
});

Deno.test("writeAtomic keeps the old file when the content stream fails", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "out.txt");
  await Deno.writeTextFile(path, "old");
  async function* failing() {
    yield "new";
    throw new Error("generator failed");
  }
  await assert.rejects(() => writeAtomic(path, failing()), /generator failed/);
  assert.equal(await Deno.readTextFile(path), "old");
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["out.txt"]);
  await assert.rejects(
    () => writeAtomic(join(dir, "missing", "x.txt"), "x"),
    /folder .* does not exist/,
  );
});

Deno.test("writeAtomic writes bytes unchanged and names the path when the target is a folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);
    await writeAtomic(join(dir, "f.png"), png);
    assert.deepEqual(await Deno.readFile(join(dir, "f.png")), png);
    await Deno.mkdir(join(dir, "taken"));
    await assert.rejects(
      () => writeAtomic(join(dir, "taken"), "x"),
      new RegExp(
        `^AlreadyExists: Refusing to write "${join(dir, "taken")}": it is an empty folder`,
      ),
    );
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["f.png", "taken"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
