import assert from "node:assert/strict";
import { join } from "node:path";
import { lineChart } from "./line_chart.ts";
import { saveFigure } from "./save_figure.ts";

Deno.test("saveFigure writes .svg, .png and .vl.json atomically", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const spec = lineChart(
      [{ run: "bm25", cutoff: 5, value: 0.4 }, { run: "bm25", cutoff: 10, value: 0.6 }],
      { title: "Coverage vs cutoff", note: "offline backends: lexical judge" },
    );
    const base = join(dir, "figures", "cov");
    const paths = await saveFigure(spec, base);
    assert.deepEqual(paths, { svg: `${base}.svg`, png: `${base}.png`, spec: `${base}.vl.json` });
    assert.deepEqual(JSON.parse(await Deno.readTextFile(paths.spec)), spec);
    const svg = await Deno.readTextFile(paths.svg);
    assert.ok(!svg.includes("<text"), "text is converted to outlines");
    const png = await Deno.readFile(paths.png);
    assert.deepEqual([...png.slice(1, 4)], [0x50, 0x4e, 0x47]);
    const width = Number(/^<svg [^>]*width="([\d.]+)pt"/.exec(svg)![1]);
    assert.ok(width <= 504, `at most 7 in wide, got ${width} pt`);
    const px = new DataView(png.buffer).getUint32(16);
    assert.ok(Math.abs(px - (width * 300) / 72) <= 1, `300 dpi: ${px} px for ${width} pt`);
    const names = [...Deno.readDirSync(join(dir, "figures"))].map((e) => e.name).sort();
    assert.deepEqual(names, ["cov.png", "cov.svg", "cov.vl.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
