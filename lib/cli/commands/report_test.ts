import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { recordGalleryEntry, saveTable } from "@lib/report/mod.ts";
import { makeReportCommand, reportCommand } from "./report.ts";

async function experiment(): Promise<string> {
  const dir = await Deno.makeTempDir();
  const t = await saveTable({
    caption: "Coverage",
    columns: [{ key: "cov", label: "Cov" }],
    rows: [{ label: "bm25", values: { cov: 0.5 } }],
  }, join(dir, "tables", "cov"));
  const rel = (p: string) => p.slice(dir.length + 1);
  await recordGalleryEntry(dir, {
    name: "cov",
    title: "Coverage",
    subtitle: [],
    notes: [],
    table: { csv: rel(t.csv), md: rel(t.md), tex: rel(t.tex), html: rel(t.html) },
  });
  return dir;
}

Deno.test("crux report writes index.html, prints its path and opens it on request", async () => {
  const dir = await experiment();
  try {
    const opened: string[] = [];
    const command = makeReportCommand({ open: (p) => (opened.push(p), Promise.resolve(false)) });
    const io = memoryIo();
    const code = await main(
      ["report", "--workspace", dir, "--title", "Sample", "--open"],
      io,
      [command],
    );
    assert.equal(code, 0);
    assert.equal(io.stdout(), `${dir}/index.html\n`);
    assert.deepEqual(opened, [`${dir}/index.html`]);
    assert.equal(
      io.stderr(),
      `Cannot open a browser (no xdg-open or open); open ${dir}/index.html by hand\n`,
    );
    const page = await Deno.readTextFile(join(dir, "index.html"));
    assert.ok(page.includes("<h1>Sample</h1>"));
    assert.ok(page.includes('<a href="tables/cov.tex">LaTeX</a>'));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux report without saved analyses or --workspace fails with a clear message", async () => {
  const dir = await Deno.makeTempDir();
  try {
    let io = memoryIo();
    assert.equal(await main(["report", "--workspace", dir], io, [reportCommand]), 1);
    assert.equal(
      io.stderr(),
      `crux report: ${dir}/analyses.json: no saved analyses; run the analyses (crux run, crux demo) first\n`,
    );
    io = memoryIo();
    assert.equal(await main(["report"], io, [reportCommand]), 2);
    assert.match(io.stderr(), /^crux report: missing --workspace\n/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
