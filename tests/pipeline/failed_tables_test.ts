// Tables are views of stored measures: an online `crux run` in which 40% of the
// calls fail writes no table cell and no stored mean derived from a failed or
// missing rating (each such cell is blank, its reason in the notes), and after a
// healthy re-run every saved table equals a clean run's byte for byte.
import assert from "node:assert/strict";
import { requestHash, writeFaultConfig } from "./_faults.ts";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { runCommand } from "@lib/cli/commands/run.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { type Reply, startOpenAiServer } from "../support/openai_server.ts";
import { fakeReply, promptKind } from "../support/fake_model.ts";
import { tinyWorkspaceDir } from "./_tiny.ts";

const tiny = JSON.parse(
  await Deno.readTextFile(new URL("../../lib/construct/testdata/tiny.json", import.meta.url)),
) as { topics: { topicId: string; summary: string }[] };
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[a-z]{5,}/g) ?? []);
const [first, second] = tiny.topics.map((t) => wordsOf(t.summary));
/** Words of one topic's summary that the other's lacks. */
const own = (a: Set<string>, b: Set<string>) => [...a].filter((w) => !b.has(w));
const firstOnly = own(first, second), secondOnly = own(second, first);

/**
 * Whether a request builds the first topic's evaluation data (its passages,
 * request, sub-questions or ratings): those never fail, so at least one topic
 * is constructed and measured whatever requests the hash picks (it changes with
 * every prompt's wording), while the other topic and every later step fail at 40%.
 */
function buildsFirstTopic(req: Parameters<typeof promptKind>[0]): boolean {
  if (!["passages", "request", "questions", "rating"].includes(promptKind(req))) return false;
  const text = wordsOf(req.messages.map((m) => m.content).join("\n"));
  const hits = (ws: string[]) => ws.filter((w) => text.has(w)).length;
  return hits(firstOnly) > hits(secondOnly);
}

/** A test server failing 40% of the requests (by key) while `state.faulty`. */
function server(state: { faulty: boolean }) {
  return startOpenAiServer({
    chat: (req, { key }) => {
      const h = requestHash(key) % 10;
      if (state.faulty && h < 4 && !buildsFirstTopic(req)) {
        return (h % 2 ? { status: 429, retryAfter: 0.01 } : { status: 500 }) as Reply;
      }
      return { content: fakeReply(req) };
    },
  });
}

async function config(workspace: string, url: string): Promise<string> {
  const file = join(workspace, "config.json");
  return await writeFaultConfig(file, workspace, url);
}

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, [runCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

/** Every saved table file (name -> text). */
async function tables(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(join(dir, "tables"))) {
    if (e.isFile) out.set(e.name, await Deno.readTextFile(join(dir, "tables", e.name)));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** One CSV line split into fields (double-quoted fields may hold commas). */
function fields(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') (cur += '"', i++);
      else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") (out.push(cur), cur = "");
    else cur += ch;
  }
  out.push(cur);
  return out;
}

/** A CSV table: its notes and its numeric cells by (row label, column header). */
function csvCells(text: string): { notes: string[]; cells: Map<string, string> } {
  const lines = text.split("\n").filter((l) => l.length);
  const notes = lines.filter((l) => l.startsWith("# ")).map((l) => l.slice(2));
  const [header, ...rows] = lines.filter((l) => !l.startsWith("# ")).map(fields);
  const cells = new Map<string, string>();
  for (const row of rows) {
    row.forEach((v, i) => {
      if (i > 0 && /^-?\d+(\.\d+)?(e-?\d+)?$/.test(v)) cells.set(`${row[0]} | ${header[i]}`, v);
    });
  }
  return { notes, cells };
}

type Row = Record<string, unknown>;

async function means(dir: string): Promise<Row[]> {
  const ws = await openWorkspace(dir);
  try {
    return await ws.query<Row>(
      `SELECT run, measure, judge, source, value, topics FROM measures WHERE topic_id = 'all'
       ORDER BY run, measure, judge, source`,
    );
  } finally {
    ws.close();
  }
}

for (const from of ["start", "generate"] as const) {
  Deno.test(`crux run with 40% failing calls from ${from}: no table cell or stored mean from a failed rating; a healthy re-run gives the clean tables`, async () => {
    const state = { faulty: false };
    await using srv = server(state);
    const cleanDir = await tinyWorkspaceDir();
    const dir = await tinyWorkspaceDir();
    try {
      assert.equal((await crux(["run", "--config", await config(cleanDir, srv.url)])).code, 0);
      const clean = await tables(cleanDir);
      const cleanMeans = await means(cleanDir);

      const file = await config(dir, srv.url);
      if (from === "generate") {
        assert.equal((await crux(["run", "--config", file, "--until", "select"])).code, 0);
      }
      state.faulty = true;
      const faulty = await crux(["run", "--config", file]);
      assert.equal(faulty.code, 1, faulty.err);
      state.faulty = false;

      // Every stored mean is a clean run's mean (same key, same value, same topic count).
      const byKey = new Map(
        cleanMeans.map((r) => [`${r.run}|${r.measure}|${r.judge}|${r.source}`, r]),
      );
      const partialMeans = await means(dir);
      for (const r of partialMeans) {
        assert.deepEqual(
          r,
          byKey.get(`${r.run}|${r.measure}|${r.judge}|${r.source}`),
          JSON.stringify(r),
        );
      }
      assert.ok(
        partialMeans.length < cleanMeans.length,
        "means over incomplete topic sets are absent",
      );

      // Every numeric cell of every saved table is the clean run's value of that cell or blank.
      const partial = await tables(dir);
      let blanks = 0;
      for (const [name, text] of partial) {
        if (!name.endsWith(".csv")) continue;
        const want = csvCells(clean.get(name) ?? "").cells;
        const got = csvCells(text);
        for (const [cell, v] of got.cells) {
          assert.equal(
            v,
            want.get(cell),
            `${name}: ${cell} is ${v}, the clean run has ${want.get(cell)}`,
          );
        }
        blanks += [...want.keys()].filter((k) => !got.cells.has(k)).length;
      }
      assert.ok(blanks > 0, "some cells are blank");
      // Each blank value of the main table has its reason.
      const main = csvCells(partial.get("main_table.csv")!);
      const cleanMain = csvCells(clean.get("main_table.csv")!).cells;
      const rows = new Set(
        partial.get("main_table.csv")!.split("\n").filter((l) => l && !l.startsWith("# "))
          .map((l) => fields(l)[0]),
      );
      for (const k of cleanMain.keys()) {
        const [label, column] = k.split(" | ");
        if (main.cells.has(k) || !rows.has(label) || label.startsWith("Kendall")) continue;
        const measure = column.split(" / ")[1];
        assert.ok(
          main.notes.some((n) =>
            n.startsWith(`No value of ${measure}: `) && n.includes(`${label} (`) &&
            /re-run|incomplete/.test(n)
          ),
          `${k} is blank without a reason:\n${main.notes.join("\n")}`,
        );
      }

      // Healthy again: the tables equal the clean run's, byte for byte.
      assert.equal((await crux(["run", "--config", file])).code, 0);
      const again = await tables(dir);
      assert.deepEqual([...again.keys()], [...clean.keys()]);
      for (const [name, text] of clean) {
        assert.equal(
          again.get(name)!.replaceAll(dir, "<ws>"),
          text.replaceAll(cleanDir, "<ws>"),
          name,
        );
      }
      assert.deepEqual(await means(dir), cleanMeans);
    } finally {
      await Deno.remove(cleanDir, { recursive: true });
      await Deno.remove(dir, { recursive: true });
    }
  });
}
