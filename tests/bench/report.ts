/**
 * Report benchmark: building a run x measure table from long-format metric
 * rows, rendering it in the five formats, and rendering figures to SVG and
 * PNG (Vega-Lite compile + headless Vega view + resvg) and saving them.
 *
 * Run: `deno run -A tests/bench/report.ts [--quick]` or through `deno task bench`.
 *
 * @module
 */
import type { MetricRow, Rating } from "@lib/types/records.ts";
import {
  barChart,
  metricTable,
  ratingHeatmap,
  renderPng,
  renderSvg,
  saveFigure,
  tableCsv,
  tableHtml,
  tableLatex,
  tableMarkdown,
  tableText,
  topicChart,
} from "@lib/report/mod.ts";

/** Mean milliseconds per call of `f` over `repeats` calls, after one warm-up call. */
async function time(repeats: number, f: () => unknown): Promise<number> {
  await f();
  const t0 = performance.now();
  for (let i = 0; i < repeats; i++) await f();
  return (performance.now() - t0) / repeats;
}

const ms = (name: string, v: number) => `${name.padEnd(52)} ${v.toFixed(1).padStart(8)} ms`;

/**
 * Run the report benchmarks.
 *
 * @param opts `quick` (default false) uses fewer topics and repeats.
 * @returns One line of text per measurement.
 */
export async function bench(opts: { quick?: boolean } = {}): Promise<string[]> {
  const topics = opts.quick ? 20 : 100;
  const reps = opts.quick ? 3 : 10;
  const rows: MetricRow[] = [];
  for (let r = 0; r < 20; r++) {
    for (let m = 0; m < 10; m++) {
      for (let t = 0; t < topics; t++) {
        const value = ((r * 7 + m * 3 + t) % 97) / 97;
        rows.push({ run: `run${r}`, topicId: `t${t}`, measure: `M${m}@10`, value });
      }
    }
  }
  const out: string[] = [];
  const build = await time(reps, () => metricTable(rows));
  out.push(ms(`metricTable: ${rows.length} metric rows -> 20 runs x 10 measures`, build));
  out.push(
    `${"  = metric rows aggregated per second".padEnd(52)} ${
      (rows.length / build * 1000).toExponential(2).padStart(8)
    }`,
  );
  const t = metricTable(rows, { notes: ["offline backends: lexical judge"] });
  out.push(ms(
    "render that table as md + tex + csv + html + text",
    await time(reps * 5, () => {
      tableMarkdown(t);
      tableLatex(t);
      tableCsv(t);
      tableHtml(t);
      tableText(t);
    }),
  ));

  const means = rows.filter((r) => r.topicId === "t0" && Number(r.run.slice(3)) < 6);
  const bar = barChart(means, { title: "Bench bars", note: "offline backends: lexical judge" });
  out.push(
    ms("renderSvg: bar chart, 6 runs x 10 measures", await time(reps, () => renderSvg(bar))),
  );
  const ratings: Rating[] = [];
  for (let p = 0; p < 40; p++) {
    for (let q = 1; q <= 15; q++) {
      ratings.push({
        topicId: "t",
        itemId: `t:${p % 8}#${p}`,
        questionId: `t#q${q}`,
        rating: (p * q) % 6,
        judge: "lexical",
      });
    }
  }
  const heat = ratingHeatmap(ratings, { title: "Bench heatmap" });
  out.push(
    ms(
      "renderSvg: rating heatmap, 40 passages x 15 questions",
      await time(reps, () => renderSvg(heat)),
    ),
  );
  const perTopic = topicChart(
    rows.filter((r) => r.measure === "M0@10" && Number(r.run.slice(3)) < 4),
    { title: "Bench topics" },
  );
  out.push(
    ms(
      `renderSvg: topic chart, 4 runs x ${topics} topics`,
      await time(reps, () => renderSvg(perTopic)),
    ),
  );
  const heatSvg = await renderSvg(heat);
  out.push(
    ms(
      "renderPng: that heatmap at scale 2",
      await time(reps, () => renderPng(heatSvg, { scale: 2 })),
    ),
  );
  const dir = await Deno.makeTempDir();
  try {
    let i = 0;
    out.push(
      ms(
        "saveFigure: bar chart (.svg + .png + .vl.json)",
        await time(reps, () => saveFigure(bar, `${dir}/f${i++}`)),
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return out;
}

if (import.meta.main) {
  for (const line of await bench({ quick: Deno.args.includes("--quick") })) console.log(line);
}
