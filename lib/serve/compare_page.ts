/**
 * The compare page of the explorer: two runs' reports on one topic side by side,
 * with every measured value of both and their difference, per method.
 *
 * @module
 */
import type { CompareRows, Workspace } from "@lib/store/mod.ts";
import { esc, htmlTable, page, seg } from "./_html.ts";

/**
 * Renders the compare page, or undefined when the topic has no such reports.
 *
 * @param ws The workspace.
 * @param topicId The topic.
 * @param runs The two runs (`a`, `b`); default the first two with reports.
 * @param opts `rows`: the topic's reports and measured values read beforehand (see
 *   `readExplorerCompareRows`; the page is the same); default: read for this page.
 * @returns The HTML page, or undefined.
 * @example
 * ```ts
 * import { comparePage } from "@lib/serve/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const html = await comparePage(ws, "sample-01", { a: "rag-bm25", b: "direct" });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function comparePage(
  ws: Workspace,
  topicId: string,
  runs: { a?: string; b?: string } = {},
  opts: { rows?: CompareRows } = {},
): Promise<string | undefined> {
  // The topic's reports read once (the runs by name, as `readReportRuns` lists them).
  const generations = opts.rows?.generations ?? await ws.generations({ topicId });
  const byRun = new Map(generations.map((g) => [g.run, g]));
  const available = [...byRun.keys()].sort((x, y) => x < y ? -1 : x > y ? 1 : 0);
  if (available.length === 0) return undefined;
  // By default the first two reports with text: an empty report compares with nothing.
  const texts = new Map(generations.map((g) => [g.run, g.text ?? ""]));
  const written = available.filter((r) => (texts.get(r) ?? "").trim() !== "");
  const defaults = [...written, ...available.filter((r) => !written.includes(r))];
  const a = runs.a ?? defaults.find((r) => r !== runs.b) ?? defaults[0];
  const b = runs.b ?? defaults.find((r) => r !== a) ?? a;
  if (!available.includes(a) || !available.includes(b)) return undefined;
  const ra = byRun.get(a)!, rb = byRun.get(b)!;
  const values = new Map<string, { a?: number; b?: number; method: string }>();
  for (const m of opts.rows?.measures ?? await ws.measures({ topicId })) {
    if (m.run !== a && m.run !== b) continue;
    const key = [m.method, m.measure, m.judge, m.source].join("\u0000");
    let v = values.get(key);
    if (!v) values.set(key, v = { method: m.method ?? "" });
    if (m.run === a) v.a = m.value;
    if (m.run === b) v.b = m.value;
  }
  const fmt = (x: number | undefined) => x === undefined || x === null ? "" : x.toFixed(4);
  const rows = [...values].sort((x, y) => x[0] < y[0] ? -1 : 1).map(([key, v]) => {
    const [method, measure, judge, source] = key.split("\u0000");
    const diff = v.a !== undefined && v.b !== undefined ? v.b - v.a : undefined;
    return [
      esc(method),
      esc(measure),
      esc([judge, source].filter(Boolean).join(" / ")),
      `<td class="num">${fmt(v.a)}</td>`,
      `<td class="num">${fmt(v.b)}</td>`,
      `<td class="num">${diff === undefined ? "" : (diff > 0 ? "+" : "") + diff.toFixed(4)}</td>`,
    ];
  });
  const options = (chosen: string) =>
    available.map((r) => `<option${r === chosen ? " selected" : ""}>${esc(r)}</option>`).join("");
  const body = [
    `<form method="get" action="/compare/${seg(topicId)}">A <select name="a">${
      options(a)
    }</select> ` +
    `B <select name="b">${options(b)}</select> <button>Compare</button></form>`,
    `<div class="cols"><section><h2><a href="/report/${seg(a)}/${seg(topicId)}">${
      esc(a)
    }</a></h2>` +
    `${reportText(ra.text)}</section>` +
    `<section><h2><a href="/report/${seg(b)}/${seg(topicId)}">${esc(b)}</a></h2>` +
    `${reportText(rb.text)}</section></div>`,
    `<h2>Measured values on this topic (B - A)</h2>`,
    htmlTable(["method", "measure", "judge / source", a, b, "B - A"], rows),
  ].join("\n");
  return page(`Compare ${a} and ${b} on ${topicId}`, body, [[`/topic/${seg(topicId)}`, topicId]]);
}

function reportText(text: string | undefined): string {
  return (text ?? "").trim() === ""
    ? `<p class="muted">(an empty report)</p>`
    : `<div class="text">${esc(text)}</div>`;
}
