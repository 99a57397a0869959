import assert from "node:assert/strict";
import { saveAnalysis } from "./save_analysis.ts";
import { topicCoverage } from "./topic_coverage.ts";
import { tinyData } from "./testdata/tiny_data.ts";

Deno.test("saveAnalysis: table as CSV/Markdown/LaTeX and figure as SVG/PNG/Vega-Lite under outDir", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const saved = await saveAnalysis(topicCoverage(tinyData()), dir);
    assert.deepEqual(saved, {
      name: "topic_coverage",
      table: {
        csv: `${dir}/tables/topic_coverage.csv`,
        md: `${dir}/tables/topic_coverage.md`,
        tex: `${dir}/tables/topic_coverage.tex`,
        html: `${dir}/tables/topic_coverage.html`,
      },
      figure: {
        svg: `${dir}/figures/topic_coverage.svg`,
        png: `${dir}/figures/topic_coverage.png`,
        spec: `${dir}/figures/topic_coverage.vl.json`,
      },
      gallery: `${dir}/index.html`,
    });
    const png = await Deno.readFile(saved.figure!.png);
    assert.deepEqual([...png.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    const svg = await Deno.readTextFile(saved.figure!.svg);
    assert.match(svg, /^<svg width="[\d.]+pt" height="[\d.]+pt"/);
    const spec = await Deno.readTextFile(saved.figure!.spec);
    assert.ok(spec.includes("offline backends: lexical judge, extractive generator"));
    const csv = await Deno.readTextFile(saved.table!.csv);
    assert.ok(csv.endsWith("t1,1,0.5,0,0,1,1\nt2,0.5,0,1,0.5,1,1\n"), csv);
    // the manifest lists it once, with relative paths, also after saving again
    await saveAnalysis(topicCoverage(tinyData()), dir);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/analyses.json`));
    assert.equal(manifest.analyses.length, 1);
    const entry = manifest.analyses[0];
    assert.equal(entry.title, "Per-topic report coverage Cov(y) (offline backends)");
    assert.equal(entry.caption, "Per-topic Cov(y) of the reports (offline backends)");
    assert.deepEqual(entry.figure, {
      svg: "figures/topic_coverage.svg",
      png: "figures/topic_coverage.png",
      spec: "figures/topic_coverage.vl.json",
    });
    assert.ok(entry.notes.includes("offline backends: lexical judge, extractive generator"));
    const page = await Deno.readTextFile(`${dir}/index.html`);
    assert.ok(page.includes('<img src="figures/topic_coverage.svg"'));
    assert.ok(page.includes('<a href="tables/topic_coverage.tex">LaTeX</a>'));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("saveAnalysis: each cells line names its CSV header, row position, column position and digits", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const a = topicCoverage(tinyData());
    await saveAnalysis(a, dir, { gallery: false });
    const lines = (await Deno.readTextFile(`${dir}/tables/topic_coverage.cells.jsonl`)).trim()
      .split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, a.cells!.length);
    const csv = (await Deno.readTextFile(`${dir}/tables/topic_coverage.csv`)).split("\n")
      .filter((l) => l && !l.startsWith("#")).map((l) => l.split(","));
    for (const c of lines) {
      assert.equal(c.decimals, 3);
      assert.equal(csv[0][c.position + 1], c.header);
      assert.equal(csv[c.index + 1][0], c.row);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
