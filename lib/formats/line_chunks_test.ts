import assert from "node:assert/strict";
import { join } from "node:path";
import { InputError } from "./input_error.ts";
import { LineChunks } from "./line_chunks.ts";
import fc from "fast-check";

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

Deno.test("LineChunks gives every byte once, in whole lines, whatever the chunk size (property)", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "p.txt");
  const line = fc.oneof(
    fc.string({ maxLength: 12 }),
    // A mark (U+FEFF) that does not start the file is text.
    fc.constantFrom("", "é", "日本語", "\r", "\uFEFF", "x".repeat(70)),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(line, { maxLength: 30 }),
      fc.boolean(),
      fc.boolean(),
      fc.integer({ min: 1, max: 48 }),
      async (lines, bom, lastLf, chunkBytes) => {
        const text = (bom ? "\uFEFF" : "") + lines.join("\n") +
          (lastLf && lines.length ? "\n" : "");
        const bytes = new TextEncoder().encode(text);
        await Deno.writeFile(path, bytes);
        // The mark is dropped when the file starts with it (as a first line of "\uFEFF" does).
        const start = text.startsWith("\uFEFF") ? 3 : 0;
        let at = start;
        const seen: Uint8Array[] = [];
        for await (const c of new LineChunks(path, { chunkBytes })) {
          assert.equal(c.offset, at);
          const copy = c.bytes.slice();
          // The next read runs while the caller holds this chunk: it must not touch it.
          await new Promise((r) => setTimeout(r, 0));
          assert.deepEqual(c.bytes, copy);
          at += c.bytes.length;
          seen.push(copy);
          if (at < bytes.length) {
            assert.equal(copy.at(-1), 10, "a chunk before the last ends a line");
          }
        }
        assert.equal(at, bytes.length);
        // Chunks end at line ends, so each decodes on its own.
        const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
        assert.equal(seen.map((c) => decoder.decode(c)).join(""), text.slice(start ? 1 : 0));
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("LineChunks left early closes the file with no stray error", async () => {
  const path = await file(Array.from({ length: 2000 }, (_, i) => `line ${i}`).join("\n"));
  let n = 0;
  for await (const c of new LineChunks(path, { chunkBytes: 64 })) {
    n += c.bytes.length;
    if (n > 500) break; // the read of the next chunk is under way here
  }
  assert.ok(n > 500 && n < 700);
  // The read started before the break settles against the closed file without an
  // unhandled rejection (which would fail this test).
  await new Promise((r) => setTimeout(r, 20));
});
