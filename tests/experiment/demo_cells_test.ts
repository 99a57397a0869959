/**
 * Tables are views of the measure table: on the demo, every numeric cell of the
 * saved main table equals the stored `measures` row its `main_table.cells.jsonl`
 * line names, and every blank cell has a reason there.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runDemo } from "@lib/experiment/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import type { CellSource } from "@lib/analysis/mod.ts";

/** CSV rows (header names -> fields); the demo's labels hold no commas. */
function parseCsv(text: string): Record<string, string>[] {
  const lines = text.split("\n").filter((l) => l && !l.startsWith("#"));
  const split = (l: string) => l.split(",").map((c) => c.replace(/^"|"$/g, ""));
  const head = split(lines[0]);
  return lines.slice(1).map((l) => Object.fromEntries(split(l).map((c, i) => [head[i], c])));
}

Deno.test({
  name: "demo: every numeric cell of the main table is the stored row its cell key names",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-demo-cells-" });
    try {
      await runDemo({ dir });
      const cells: CellSource[] = (await Deno.readTextFile(
        join(dir, "tables", "main_table.cells.jsonl"),
      )).trim().split("\n").map((l) => JSON.parse(l));
      const csv = parseCsv(await Deno.readTextFile(join(dir, "tables", "main_table.csv")));
      const ws = await openWorkspace(dir, { readOnly: true });
      const stored = new Map(
        (await ws.query<
          {
            run: string;
            source: string;
            judge: string;
            measure: string;
            topicId: string;
            value: number;
          }
        >("SELECT run, source, judge, measure, topic_id, value FROM measures")).map((r) => [
          [r.run, r.source, r.judge, r.measure, r.topicId].join("|"),
          Number(r.value),
        ]),
      );
      ws.close();
      // The CSV header of a column is "<dataset> / <label>"; the cell's column key "<dataset>:<measure>".
      const labels: Record<string, string> = {
        covZ: "Cov(Z)",
        andcg: "α-nDCG",
        covY: "Cov(y)",
        denZ: "Den(Z)",
        denY: "Den(y)",
      };
      let shown = 0;
      for (const c of cells) {
        const [dataset, measure] = c.column.split(":");
        const text = csv.find((r) => r.Pipeline === c.row)?.[`${dataset} / ${labels[measure]}`];
        assert.ok(text !== undefined, `${c.row} ${c.column} is in the table`);
        if (c.key) {
          const k = c.key;
          const value = stored.get([k.run, k.source, k.judge, k.measure, k.topicId].join("|"));
          assert.ok(value !== undefined, `${JSON.stringify(k)} is a stored row`);
          assert.equal(Number(text), value, `${c.row} ${c.column}`);
          shown++;
        } else {
          assert.equal(text, "", `${c.row} ${c.column} is blank`);
          assert.ok(c.reason && c.reason.length > 0);
        }
      }
      // Every numeric cell of the value columns has its line.
      const numeric = csv.flatMap((r) =>
        Object.entries(r).filter(([h, v]) =>
          Object.values(labels).some((l) => h.endsWith(` / ${l}`)) && /^-?\d/.test(v) &&
          !r.Pipeline.startsWith("Kendall")
        )
      );
      assert.equal(shown, numeric.length);
      assert.ok(shown >= 10, `the demo shows values (${shown})`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
