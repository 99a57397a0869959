/**
 * The report page of the explorer: a report with the spans that answer each
 * sub-question highlighted (where the typed coverage method located them), and
 * every method's verdicts on it.
 *
 * @module
 */
import {
  readCoverageVerdicts,
  readReportRatings,
  readReportVerdicts,
  readTopicTypes,
  type ReportRows,
  type Workspace,
} from "@lib/store/mod.ts";
import { esc, heatStyle, htmlTable, page, seg } from "./_html.ts";
import { naturalCompare } from "@lib/report/mod.ts";
import { loose } from "./topic_page.ts";

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The text with the given spans marked (each found occurrence, escaped), and the
 * spans not found. With `labels` (one per span: the sub-question it answers), each
 * mark names its sub-question in a tooltip and links to row `#cov-<n>` (n = the
 * span's position, from 1) with a superscript number; the mark's id is `span-<n>`.
 */
export function markSpans(
  text: string,
  spans: readonly string[],
  labels?: readonly string[],
): { html: string; missing: string[] } {
  const ranges: [number, number, number][] = [];
  const missing: string[] = [];
  spans.forEach((s, i) => {
    const at = s ? text.indexOf(s) : -1;
    if (at < 0) missing.push(s);
    else ranges.push([at, at + s.length, i]);
  });
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let html = "";
  let pos = 0;
  for (const [from, to, i] of ranges) {
    if (to <= pos) continue;
    const start = Math.max(from, pos);
    const inner = esc(text.slice(start, to));
    html += esc(text.slice(pos, start)) +
      (labels
        ? `<mark id="span-${i + 1}" title="${esc(labels[i] ?? "")}">${inner}<sup>` +
          `<a href="#cov-${i + 1}">${i + 1}</a></sup></mark>`
        : `<mark>${inner}</mark>`);
    pos = to;
  }
  return { html: html + esc(text.slice(pos)), missing };
}

/** One report's rows read for this page alone, or undefined when there is no such report. */
async function readReportRows(
  ws: Workspace,
  run: string,
  topicId: string,
): Promise<ReportRows | undefined> {
  const [report] = await ws.generations({ run, topicId });
  if (!report) return undefined;
  return {
    report,
    questions: (await ws.questions({ topicId, kind: "subquestion" }))
      .sort((a, b) => a.ordinal - b.ordinal),
    coverage: await readCoverageVerdicts(ws, await sha256(report.text)),
    types: await readTopicTypes(ws, topicId),
    ratings: await readReportRatings(ws, { run, topicId }),
    verdicts: await readReportVerdicts(ws, { run, topicId }),
  };
}

/**
 * Renders a report page, or undefined when the run has no report for the topic.
 *
 * @param ws The workspace.
 * @param run The generated run.
 * @param topicId The topic.
 * @param opts `rows`: the report's rows read beforehand (see `readExplorerReportRows`;
 *   the page is the same); default: read for this page.
 * @returns The HTML page, or undefined.
 * @example
 * ```ts
 * import { reportPage } from "@lib/serve/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const html = await reportPage(ws, "rag-bm25", "sample-01");
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function reportPage(
  ws: Workspace,
  run: string,
  topicId: string,
  opts: { rows?: ReportRows } = {},
): Promise<string | undefined> {
  const rows = opts.rows ?? await readReportRows(ws, run, topicId);
  if (!rows) return undefined;
  const { report, questions } = rows;
  // In the order of the topic's sub-questions (others after, by text), then by judge.
  const rank = new Map(questions.map((q, i) => [loose(q.text), i]));
  const at = (text: string) => rank.get(loose(text)) ?? questions.length;
  const coverage = [...rows.coverage].sort((a, b) =>
    at(a.subQuestion) - at(b.subQuestion) || naturalCompare(a.subQuestion, b.subQuestion) ||
    naturalCompare(a.judge, b.judge)
  );
  const located = coverage.filter((c) => c.answered && c.span);
  const spans = located.map((c) => c.span!);
  const marked = markSpans(report.text, spans, located.map((c) => `Answers: ${c.subQuestion}`));
  const spanNumber = new Map(located.map((c, i) => [c, i + 1]));
  const types = new Map<string, string>();
  for (const t of rows.types) {
    if (t.type && !types.has(loose(t.text))) types.set(loose(t.text), t.type);
  }
  const byJudge = new Map<string, Map<string, number>>();
  for (const r of rows.ratings) {
    let m = byJudge.get(r.judge);
    if (!m) byJudge.set(r.judge, m = new Map());
    m.set(r.questionId, r.rating);
  }
  const verdicts = rows.verdicts;
  const parts = [
    `<p class="muted">Condition ${esc(report.condition ?? "?")}, backend ${
      esc(report.backend ?? "?")
    }, ` +
    `${report.tokens ?? "?"} tokens` +
    (report.contextIds?.length ? `, context of ${report.contextIds.length} passages` : "") +
    ".</p>",
    `<div class="text" id="report">${marked.html}</div>`,
    spans.length
      ? `<p class="muted">Highlighted: ${
        spans.length - marked.missing.length
      } span(s) located by the typed sub-question coverage judge` +
        (marked.missing.length
          ? `; ${marked.missing.length} stated span(s) not found verbatim in the text`
          : "") +
        ".</p>"
      : "",
    `<h2>CRUX answerability (0-5) per sub-question</h2>`,
    htmlTable(
      ["#", "sub-question", ...byJudge.keys()],
      questions.map((q) => [
        `q${q.ordinal}`,
        esc(q.text),
        ...[...byJudge.values()].map((m) => {
          const v = m.get(q.questionId);
          return `<td class="heat" style="${heatStyle(v)}">${v ?? ""}</td>`;
        }),
      ]),
    ),
  ];
  for (const method of ["nuggets", "keypoints"]) {
    const shown = verdicts.filter((v) => v.method === method)
      .sort((a, b) => naturalCompare(a.judge, b.judge) || naturalCompare(a.id, b.id));
    parts.push(
      `<h2>${
        method === "nuggets" ? "Nugget assignments" : "Key point entailment"
      } (${shown.length})</h2>`,
      htmlTable(
        method === "nuggets"
          ? ["#", "nugget", "importance", "label", "judge"]
          : ["key point", "text", "label", "judge"],
        shown.map((v) =>
          method === "nuggets"
            ? [esc(v.id), esc(v.text), esc(v.importance ?? ""), esc(v.label), esc(v.judge)]
            : [esc(v.id), esc(v.text), esc(v.label), esc(v.judge)]
        ),
      ),
    );
  }
  parts.push(
    `<h2>Typed sub-question coverage (${coverage.length})</h2>`,
    htmlTable(
      ["#", "sub-question", "type", "answered", "span", "judge"],
      coverage.map((c) => {
        const n = spanNumber.get(c);
        return [
          n === undefined ? "" : `<td class="num" id="cov-${n}"><a href="#span-${n}">${n}</a></td>`,
          esc(c.subQuestion),
          esc(types.get(loose(c.subQuestion)) ?? ""),
          c.answered === null ? esc(c.status || "unparsed") : c.answered ? "yes" : "no",
          esc(c.span ?? ""),
          esc(c.judge),
        ];
      }),
    ),
  );
  return page(`Report ${run} on ${topicId}`, parts.join("\n"), [
    [`/topic/${seg(topicId)}`, topicId],
    [`/report/${seg(run)}/${seg(topicId)}`, run],
  ]);
}
