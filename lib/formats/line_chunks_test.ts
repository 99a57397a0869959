import assert from "node:assert/strict";
import { join } from "node:path";
import { InputError } from "./input_error.ts";
import { LineChunks } from "./line_chunks.ts";

async function file(bytes: Uint8Array | string): Promise<string> {
  const path = join(await Deno.makeTempDir(), "f.txt");
  if (typeof bytes === "string") await Deno.writeTextFile(path, bytes);
  else await Deno.writeFile(path, bytes);
  return path;
}

async function collect(chunks: LineChunks): Promise<string[]> {
  const out: string[] = [];
  for await (const c of chunks) out.push(`${c.offset}:${new TextDecoder().decode(c.bytes)}`);
  return out;
}

Deno.test("LineChunks yields whole lines with their offsets, skipping a byte-order mark", async () => {
  const path = await file("\uFEFFab\ncd\nef\ngh");
  // The last line, without its LF, comes once the end of the file is seen.
  assert.deepEqual(await collect(new LineChunks(path, { chunkBytes: 16 })), [
    "3:ab\ncd\nef\n",
    "12:gh",
  ]);
  // Reads of 6 bytes: each chunk holds the lines ending inside the bytes read.
  assert.deepEqual(await collect(new LineChunks(path, { chunkBytes: 6 })), [
    "3:ab\n",
    "6:cd\nef\n",
    "12:gh",
  ]);
  // A line longer than the chunk grows the buffer.
  const long = await file("x".repeat(40) + "\ny\n");
  assert.deepEqual(await collect(new LineChunks(long, { chunkBytes: 16 })), [
    `0:${"x".repeat(40)}\ny\n`,
  ]);
  assert.equal(await new LineChunks(path).lineAt(9), 3);
});

Deno.test("LineChunks names the line, column and byte of invalid UTF-8 in a late chunk", async () => {
  const lines = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const head = new TextEncoder().encode(lines);
  const bytes = new Uint8Array([...head, 0x61, 0x62, 0xff, 0x0a]); // line 501: "ab\xff"
  const path = await file(bytes);
  await assert.rejects(
    () => collect(new LineChunks(path, { chunkBytes: 64 })),
    (e) =>
      e instanceof InputError && e.problems[0].line === 501 &&
      /byte 0xff at column 3, file offset \d+/.test(e.message),
  );
  // A multi-byte character cut by the end of the file.
  const cut = await file(new Uint8Array([0x61, 0x0a, 0x62, 0xe2, 0x82]));
  await assert.rejects(
    () => collect(new LineChunks(cut)),
    (e) =>
      e instanceof InputError &&
      /f\.txt:2: not valid UTF-8 \(byte 0xe2 at column 2/.test(e.message),
  );
});

Deno.test("LineChunks refuses a line longer than its limit, naming the line", async () => {
  const path = await file("a\n" + "x".repeat(100) + "\n");
  await assert.rejects(
    () => collect(new LineChunks(path, { chunkBytes: 16, maxLineBytes: 64 })),
    (e) => e instanceof InputError && /f\.txt:2: line longer than 64 bytes/.test(e.message),
  );
});
