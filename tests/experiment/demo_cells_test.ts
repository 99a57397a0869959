/**
 * Tables are views of the measure table: on the demo, every numeric cell of
 * every saved table with a `tables/<name>.cells.jsonl` equals the stored
 * `measures` row its line names (or is a statistic derived from stored rows,
 * named as such), every blank cell has a reason there, and a stored row shown
 * in two tables shows one value.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runDemo } from "@lib/experiment/mod.ts";
import { formatStatisticKey, openWorkspace, readCaveats, readStatistics } from "@lib/store/mod.ts";
import type { CellSource } from "@lib/analysis/mod.ts";

/** CSV rows (header names -> fields) and the header; the demo's labels hold no commas. */
function parseCsv(text: string): { head: string[]; rows: Record<string, string>[] } {
  const lines = text.split("\n").filter((l) => l && !l.startsWith("#"));
  const split = (l: string) => l.split(",").map((c) => c.replace(/^"|"$/g, ""));
  const head = split(lines[0]);
  return {
    head,
    rows: lines.slice(1).map((l) => Object.fromEntries(split(l).map((c, i) => [head[i], c]))),
  };
}

type Key = NonNullable<CellSource["key"]>;
const keyText = (k: Key) => [k.run, k.source, k.judge, k.measure, k.topicId].join("|");
const numeric = (text: string) => /^-?\d/.test(text);

Deno.test({
  name: "demo: every numeric cell of every saved table is the stored row its cell key names",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-demo-cells-" });
    try {
      await runDemo({ dir });
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
          keyText(r),
          Number(r.value),
        ]),
      );
      // The statistics the statistics stage stored, by key.
      const statistics = new Map(
        (await readStatistics(ws)).map((s) => [formatStatisticKey(s.key), s.value]),
      );
      // Every saved table's notes are its stored caveats, in order, in every view.
      const tables = [...Deno.readDirSync(join(dir, "tables"))].map((e) => e.name)
        .filter((n) => n.endsWith(".csv")).map((n) => n.replace(/\.csv$/, "")).sort();
      let caveats = 0;
      for (const name of tables) {
        const stored = (await readCaveats(ws, name)).map((c) => c.text);
        const csv = await Deno.readTextFile(join(dir, "tables", `${name}.csv`));
        const md = await Deno.readTextFile(join(dir, "tables", `${name}.md`));
        for (const text of stored) {
          assert.ok(csv.includes(`# ${text}\n`), `${name}.csv shows caveat "${text}"`);
          assert.ok(md.replaceAll("\\", "").includes(text), `${name}.md shows caveat "${text}"`);
        }
        const csvNotes = csv.split("\n").filter((l) => l.startsWith("# ")).length;
        // The CSV's comment lines: the caption and the stored caveats.
        assert.equal(csvNotes, stored.length + 1, `${name}: the CSV shows the stored caveats`);
        caveats += stored.length;
      }
      assert.ok(caveats > tables.length, `caveats stored (${caveats})`);
      const direct = (await readCaveats(ws, "main_table")).find((c) => c.row !== "")!;
      assert.equal(direct.row, "Direct (no context)");
      ws.close();
      let derivedShown = 0;
      const names = [...Deno.readDirSync(join(dir, "tables"))]
        .map((e) => e.name).filter((n) => n.endsWith(".cells.jsonl"))
        .map((n) => n.replace(/\.cells\.jsonl$/, "")).sort();
      // The tables that show stored measure values each name their cells' rows.
      for (
        const name of [
          "context_evaluation",
          "context_size_table",
          "main_table",
          "report_scores",
          "threshold_table",
          "topic_coverage",
        ]
      ) assert.ok(names.includes(name), `${name}.cells.jsonl is saved`);
      // Every stored row shown, with the tables and values showing it.
      const shownIn = new Map<string, { table: string; value: number }[]>();
      for (const name of names) {
        const cells: CellSource[] = (await Deno.readTextFile(
          join(dir, "tables", `${name}.cells.jsonl`),
        )).trim().split("\n").map((l) => JSON.parse(l));
        const csv = parseCsv(await Deno.readTextFile(join(dir, "tables", `${name}.csv`)));
        const rowHeader = csv.head[0];
        const seen = new Set<string>();
        let values = 0;
        for (const c of cells) {
          const where = `${name}: ${c.row} / ${c.header}`;
          assert.ok(c.header, `${where} names its header`);
          const text = csv.rows.find((r) => r[rowHeader] === c.row)?.[c.header!];
          assert.ok(text !== undefined, `${where} is in the table`);
          seen.add(`${c.row}\u0000${c.header}`);
          if (c.key) {
            const value = stored.get(keyText(c.key));
            assert.ok(value !== undefined, `${where}: ${JSON.stringify(c.key)} is a stored row`);
            assert.equal(Number(text), value, where);
            const list = shownIn.get(keyText(c.key)) ?? [];
            shownIn.set(keyText(c.key), [...list, { table: name, value: Number(text) }]);
            values++;
          } else if (c.derived) {
            assert.ok(numeric(text), `${where}: a derived cell shows a number (${text})`);
            // A statistic across stored rows shows its stored `statistics` row.
            if (c.statistic) {
              assert.ok(statistics.has(c.statistic), `${where}: its statistic is stored`);
              assert.equal(Number(text), statistics.get(c.statistic), where);
              derivedShown++;
            }
            for (const k of c.inputs ?? []) {
              assert.ok(stored.has(keyText(k)), `${where}: input ${keyText(k)} is a stored row`);
            }
          } else {
            assert.ok(!numeric(text), `${where} shows no number (${text})`);
            assert.ok(c.reason && c.reason.length > 0, `${where} has a reason`);
          }
        }
        // Every numeric cell of the rows and columns the file covers has its line.
        const headers = new Set(cells.map((c) => c.header!));
        const rows = new Set(cells.map((c) => c.row));
        for (const r of csv.rows.filter((r) => rows.has(r[rowHeader]))) {
          for (const h of headers) {
            if (numeric(r[h] ?? "")) {
              assert.ok(seen.has(`${r[rowHeader]}\u0000${h}`), `${name}: ${r[rowHeader]} / ${h}`);
            }
          }
        }
        if (name !== "threshold_table" && name !== "context_size_table") {
          assert.ok(values > 0, `${name} shows stored rows`);
        }
      }
      // The main table's 3 taus, the threshold table's 25 statistics and the context-size
      // table's 36 taus less the 4 undefined ones (a measure constant across pipelines).
      assert.equal(derivedShown, 60, "cells showing stored statistics");
      // One value per stored row across tables; the main table and the report
      // scores both show the report means, so the check is not empty.
      let shared = 0;
      for (const [k, list] of shownIn) {
        assert.equal(new Set(list.map((x) => x.value)).size, 1, `${k}: ${JSON.stringify(list)}`);
        if (new Set(list.map((x) => x.table)).size > 1) shared++;
      }
      assert.ok(shared >= 5, `stored rows shown in two tables (${shared})`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
