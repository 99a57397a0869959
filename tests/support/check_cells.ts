/**
 * Tables are views of the measure table: a checker for an experiment's saved
 * tables. Every table under `<outDir>/tables` that shows a number has a
 * `<name>.cells.jsonl` beside it naming every numeric cell's origin; a cell
 * naming a stored `measures` row shows that row's value to the table's printed
 * precision, a derived cell shows a number and names stored inputs, a blank
 * cell carries a reason, and a stored row shown in several places shows one value;
 * a cell that `shows` a stored row's `topics` (or a stored statistic's `n`) equals that count.
 * Every key (and every input of a derived cell) names its stored row's topic
 * set: the key's `topicSet` is the row's stated `topic_set`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { formatStatisticKey, openWorkspace, readStatistics } from "@lib/store/mod.ts";
import type { CellSource } from "@lib/analysis/mod.ts";

type Key = NonNullable<CellSource["key"]>;

/** What {@linkcode checkCells} saw. */
export interface CellsChecked {
  /** Tables with a cells file, by name. */
  tables: string[];
  /** Tables without numbers (and so without a cells file). */
  plain: string[];
  /** Cells showing a stored row, derived cells, blank cells with a reason. */
  stored: number;
  derived: number;
  blank: number;
  /** Derived means checked against their stored inputs. */
  means: number;
  /** Derived cells showing a stored `statistics` row, checked against it. */
  statistics: number;
  /** Stored rows shown in two or more tables. */
  shared: number;
  /** Keys and inputs whose topic set was checked against their stored row's. */
  topicSets: number;
}

/** A number as the CSV writes one (`String(number)`), or a row number. */
export const isNumber = (text: string) => /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text);

export const keyText = (k: Key) => [k.run, k.source, k.judge, k.measure, k.topicId].join("|");

/** CSV records (RFC 4180 quoting), leading `# ` comment lines dropped. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i++;
      continue;
    }
    if (ch === "#" && field === "" && record.length === 0) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === ",") {
      record.push(field);
      field = "";
    } else if (ch === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else if (ch !== "\r") field += ch;
    i++;
  }
  if (field !== "" || record.length) records.push([...record, field]);
  return records;
}

/**
 * Checks the saved tables of an experiment against its workspace's `measures`.
 *
 * @param outDir The experiment's output folder (with `tables/`).
 * @param wsDir The workspace folder. Default `outDir`.
 * @returns What was checked, for the caller's own assertions.
 */
export async function checkCells(outDir: string, wsDir = outDir): Promise<CellsChecked> {
  const ws = await openWorkspace(wsDir, { readOnly: true });
  const stored = new Map<string, number | null>();
  const topicCounts = new Map<string, number | null>();
  const topicSets = new Map<string, string | null>();
  const statistics = new Map<string, number | null>();
  const statisticCounts = new Map<string, number>();
  try {
    for (const s of await readStatistics(ws)) {
      statistics.set(formatStatisticKey(s.key), s.value);
      statisticCounts.set(formatStatisticKey(s.key), s.n);
    }
    const rows = await ws.query<Key & { value: number | null; topics: number | null }>(
      "SELECT run, source, judge, measure, topic_id, value, topics, topic_set FROM measures",
    );
    for (const r of rows) {
      stored.set(keyText(r), r.value === null ? null : Number(r.value));
      topicCounts.set(keyText(r), r.topics === null ? null : Number(r.topics));
      topicSets.set(keyText(r), r.topicSet ?? null);
    }
  } finally {
    ws.close();
  }
  const dir = join(outDir, "tables");
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".csv"))
    .map((n) => n.slice(0, -4)).sort();
  const out: CellsChecked = {
    tables: [],
    plain: [],
    stored: 0,
    derived: 0,
    blank: 0,
    means: 0,
    statistics: 0,
    shared: 0,
    topicSets: 0,
  };
  const shownIn = new Map<string, { where: string; value: number; decimals: number }[]>();
  // Every problem is listed, not only the first.
  const problems: string[] = [];
  const check = (ok: unknown, message: string) => {
    if (!ok) problems.push(message);
  };
  // A key names its stored row's stated topic set.
  const checkTopicSet = (k: Key, where: string) => {
    const set = topicSets.get(keyText(k));
    if (set === undefined) return;
    out.topicSets++;
    check(set !== null, `${where}: the stored row ${keyText(k)} states its topic set`);
    check(
      set === null || k.topicSet === set,
      `${where}: ${keyText(k)} names topic set ${k.topicSet}, the stored row's is ${set}`,
    );
  };
  for (const name of names) {
    const [head, ...rows] = parseCsv(await Deno.readTextFile(join(dir, `${name}.csv`)));
    // The row label and the row group are labels, not values.
    const first = head[1] === "group" ? 2 : 1;
    const numbers: string[] = [];
    rows.forEach((r, i) =>
      r.forEach((text, j) => {
        if (j >= first && isNumber(text)) numbers.push(`${i}\u0000${j}`);
      })
    );
    let text: string;
    try {
      text = await Deno.readTextFile(join(dir, `${name}.cells.jsonl`));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
      check(
        numbers.length === 0,
        `tables/${name}.csv shows ${numbers.length} number(s) but has no ${name}.cells.jsonl`,
      );
      out.plain.push(name);
      continue;
    }
    out.tables.push(name);
    const seen = new Set<string>();
    text.trim().split("\n").filter(Boolean).forEach((line, n) => {
      const c = JSON.parse(line) as CellSource;
      const where = `tables/${name}.cells.jsonl:${n + 1} (${c.row} / ${c.header})`;
      const j = first + (c.position ?? -first - 1);
      check(head[j] === c.header && j >= first, `${where}: the header is a value column`);
      const row = rows[c.index ?? -1];
      check(row, `${where}: row ${c.index} is in the CSV`);
      check(row?.[0] === c.row, `${where}: the row's label`);
      if (!row || j < first) return;
      const cell = row[j];
      seen.add(`${c.index}\u0000${j}`);
      const decimals = c.decimals ?? 3;
      if (c.key) {
        check(stored.has(keyText(c.key)), `${where}: ${keyText(c.key)} is a stored row`);
        checkTopicSet(c.key, where);
        // A cell showing the stored row's topic count equals it.
        if (c.shows === "topics") {
          const topics = topicCounts.get(keyText(c.key));
          check(
            topics != null && Number(cell) === topics,
            `${where}: shows ${cell}, the stored row's topics are ${topics}`,
          );
          out.stored++;
          return;
        }
        const value = stored.get(keyText(c.key));
        check(value !== null && value !== undefined, `${where}: the stored row has a value`);
        if (value === null || value === undefined) return;
        check(isNumber(cell), `${where}: shows a number (${cell})`);
        check(
          Math.abs(Number(cell) - value) < 0.5 * 10 ** -decimals,
          `${where}: shows ${cell}, the stored row is ${value}`,
        );
        const list = shownIn.get(keyText(c.key)) ?? [];
        shownIn.set(keyText(c.key), [...list, { where, value: Number(cell), decimals }]);
        out.stored++;
      } else if (c.derived) {
        check(isNumber(cell), `${where}: a derived cell shows a number (${cell})`);
        // Inputs named as a set: exactly `count` stored rows, each with a value.
        if (c.inputSet) {
          const set = c.inputSet;
          const rows = [...stored].filter(([k]) => {
            const [, source, judge, measure] = k.split("|");
            return source === set.source && judge === set.judge && set.measures.includes(measure);
          });
          check(
            rows.length === set.count && rows.every(([, v]) => v !== null),
            `${where}: ${set.count} stored input rows of ${set.source} (${rows.length} found)`,
          );
        }
        for (const k of c.inputs ?? []) {
          check(stored.has(keyText(k)), `${where}: input ${keyText(k)} is a stored row`);
          checkTopicSet(k, `${where}: input`);
        }
        // A statistic's count of values shows its stored `n`.
        if (c.statistic && c.shows === "n") {
          const n = statisticCounts.get(c.statistic);
          check(
            n !== undefined && Number(cell) === n,
            `${where}: shows ${cell}, the stored statistic ${c.statistic} is over ${n} values`,
          );
          out.statistics++;
        } else if (c.statistic) {
          // A statistic across stored rows shows its stored `statistics` row.
          const value = statistics.get(c.statistic);
          check(value != null, `${where}: its statistic ${c.statistic} is stored`);
          if (value != null) {
            check(
              Math.abs(Number(cell) - value) < 0.5 * 10 ** -decimals,
              `${where}: shows ${cell}, the stored statistic is ${value}`,
            );
            out.statistics++;
          }
        }
        // A mean is the mean of its stored inputs.
        const ins = (c.inputs ?? []).map((k) => stored.get(keyText(k)));
        if (c.derived.startsWith("mean over") && ins.length && ins.every((v) => v != null)) {
          const mean = (ins as number[]).reduce((a, b) => a + b, 0) / ins.length;
          check(
            Math.abs(Number(cell) - mean) < 0.5 * 10 ** -decimals,
            `${where}: shows ${cell}, the mean of its ${ins.length} stored inputs is ${mean}`,
          );
          out.means++;
        }
        out.derived++;
      } else {
        check(!isNumber(cell), `${where}: a blank cell shows no number (${cell})`);
        check(c.reason && c.reason.length > 0, `${where}: a blank cell has a reason`);
        out.blank++;
      }
    });
    const unnamed = numbers.filter((cell) => !seen.has(cell)).map((cell) => {
      const [i, j] = cell.split("\u0000").map(Number);
      return `${rows[i][0]} / ${head[j]}`;
    });
    check(
      unnamed.length === 0,
      `tables/${name}.csv: ${unnamed.length} number(s) without a cell line (${
        unnamed.slice(0, 3).join("; ")
      })`,
    );
  }
  for (const [k, list] of shownIn) {
    const tol = 0.5 * 10 ** -Math.min(...list.map((x) => x.decimals));
    const lo = Math.min(...list.map((x) => x.value));
    const hi = Math.max(...list.map((x) => x.value));
    check(hi - lo < tol, `${k} shows several values: ${JSON.stringify(list)}`);
    if (new Set(list.map((x) => x.where.split(".cells")[0])).size > 1) out.shared++;
  }
  assert.equal(
    problems.length,
    0,
    `${problems.length} problem(s):\n${problems.slice(0, 40).join("\n")}`,
  );
  return out;
}
