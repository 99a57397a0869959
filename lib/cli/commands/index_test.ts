import assert from "node:assert/strict";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { indexCommand } from "./index.ts";
import { searchCommand } from "./search.ts";

const PASSAGES = [
  { id: "t1:0#0", contents: "A hurricane hit the Florida coast on Monday." },
  { id: "t1:0#1", contents: "Coast guard crews rescued fishermen after the hurricane." },
  { id: "t1:1#2", text: "Stock markets fell sharply in Tokyo." },
].map((o) => JSON.stringify(o)).join("\n") + "\n";

Deno.test("crux index builds an index that crux search reads", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/p.jsonl`, PASSAGES);
    const io = memoryIo();
    const code = await main(
      ["index", "--passages", `${dir}/p.jsonl`, "--out", `${dir}/idx`, "--k1", "1.2"],
      io,
      [indexCommand, searchCommand],
    );
    assert.equal(code, 0, io.stderr());
    assert.match(io.stdout(), /^Indexed 3 passages \(\d+ terms, \d+ postings\) into .*idx in/);
    assert.match(io.stderr(), /read 3 passages/);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/idx/manifest.json`));
    assert.equal(manifest.k1, 1.2);
    assert.equal(manifest.b, 0.4);
    assert.equal(manifest.documents, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux index reports bad lines with file and line, and bad usage", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/bad.jsonl`, PASSAGES + '{"id": "x"\n');
    const io = memoryIo();
    const code = await main(
      ["index", "--passages", `${dir}/bad.jsonl`, "--out", `${dir}/idx`],
      io,
      [indexCommand],
    );
    assert.equal(code, 1);
    assert.match(io.stderr(), /bad\.jsonl:4/);
    await assert.rejects(Deno.stat(`${dir}/idx`), Deno.errors.NotFound);
    const usage = memoryIo();
    assert.equal(await main(["index", "--out", `${dir}/idx`], usage, [indexCommand]), 2);
    assert.match(usage.stderr(), /Missing --passages/);
    const num = memoryIo();
    assert.equal(
      await main(["index", "--passages", "p", "--out", "o", "--b", "high"], num, [indexCommand]),
      2,
    );
    assert.match(num.stderr(), /--b expects a number, got "high"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux index names the passages file and line of a repeated id", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/p.jsonl`,
      PASSAGES + "\n" + JSON.stringify({ id: "t1:0#1", contents: "Again." }) + "\n",
    );
    const io = memoryIo();
    const code = await main(
      ["index", "--passages", `${dir}/p.jsonl`, "--out", `${dir}/idx`],
      io,
      [indexCommand],
    );
    assert.equal(code, 1);
    assert.equal(
      io.stderr(),
      `crux index: ${dir}/p.jsonl:5: id: "t1:0#1" is already on line 2 with other content\n`,
    );
    await assert.rejects(Deno.stat(`${dir}/idx`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux index given a folder as --passages names it and says to give a file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const io = memoryIo();
    const code = await main(["index", "--passages", dir, "--out", `${dir}/idx`], io, [
      indexCommand,
    ]);
    assert.equal(code, 1);
    assert.equal(
      io.stderr(),
      `crux index: Cannot read "${dir}": it is a folder, not a file; give the path of a file in it\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux index writes the same files with and without analysis workers", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // About 3 million characters: three batches, so the workers take part.
    const words = ["storm", "coast", "flooding", "rescued", "markets", "harbour", "power"];
    const lines = Array.from({ length: 9000 }, (_, i) =>
      JSON.stringify({
        id: `p${i}`,
        contents: Array.from({ length: 50 }, (_, k) => `${words[(i * k) % 7]}${(i + k) % 97}`)
          .join(" "),
      }));
    await Deno.writeTextFile(`${dir}/p.jsonl`, lines.join("\n") + "\n");
    const files: Record<string, Uint8Array>[] = [];
    for (const workers of ["0", "2"]) {
      const io = memoryIo();
      const out = `${dir}/idx${workers}`;
      const args = ["index", "--passages", `${dir}/p.jsonl`, "--out", out, "--workers", workers];
      assert.equal(await main(args, io, [indexCommand]), 0, io.stderr());
      assert.match(io.stdout(), /^Indexed 9000 passages \(679 terms, /);
      const names = [...Deno.readDirSync(out)].map((e) => e.name).sort();
      files.push(Object.fromEntries(names.map((n) => [n, Deno.readFileSync(`${out}/${n}`)])));
    }
    assert.equal(Object.keys(files[0]).length, 7);
    assert.deepEqual(files[1], files[0]);
    // A bad line after the workers started: named, and nothing is written.
    await Deno.writeTextFile(`${dir}/bad.jsonl`, lines.join("\n") + '\n{"id": "x"\n');
    const io = memoryIo();
    const args = ["index", "--passages", `${dir}/bad.jsonl`, "--out", `${dir}/bad`];
    assert.equal(await main([...args, "--workers", "1"], io, [indexCommand]), 1);
    assert.match(io.stderr(), /bad\.jsonl:9001/);
    await assert.rejects(Deno.stat(`${dir}/bad`), Deno.errors.NotFound);
    const usage = memoryIo();
    assert.equal(await main([...args, "--workers", "1.5"], usage, [indexCommand]), 2);
    assert.match(usage.stderr(), /Invalid --workers 1.5: need a whole number >= 0/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
