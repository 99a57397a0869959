/**
 * The topic page of the explorer: the request, its sub-questions with their
 * answerability and type, P* with the qrels grades, each retrieval run's top
 * passages with a heat row of ratings per sub-question, and the reports.
 *
 * @module
 */
import {
  passageJudge,
  readReportRuns,
  readTopicGrades,
  readTopicRanking,
  readTopicRequest,
  readTopicRunNames,
  readTopicTypes,
  type TopicRows,
  type Workspace,
} from "@lib/store/mod.ts";
import { esc, heatStyle, htmlTable, longText, page, seg } from "./_html.ts";
import { naturalCompare } from "@lib/report/mod.ts";

/** Text compared loosely: lower case, letters and digits. */
export const loose = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

/** Options of {@linkcode topicPage}. */
export interface TopicPageOptions {
  /** Passages shown per run. Default 10. */
  k?: number;
  /**
   * The topic's rows read already (see `readExplorerTopicRows`, with the same `k`);
   * default: read now.
   */
  rows?: TopicRows;
}

/** One topic's rows, read with about ten queries (the server reads every topic's at once). */
async function readRows(ws: Workspace, topicId: string, k: number): Promise<TopicRows | undefined> {
  const topic = await readTopicRequest(ws, topicId);
  if (!topic) return undefined;
  const judge = await passageJudge(ws, "show passage ratings").catch(() => undefined);
  const ratings = new Map<string, Map<string, number>>();
  if (judge) {
    for (const r of await ws.ratings({ topicId, judge })) {
      let m = ratings.get(r.itemId);
      if (!m) ratings.set(r.itemId, m = new Map());
      m.set(r.questionId, r.rating);
    }
  }
  const rankings = new Map<string, Awaited<ReturnType<typeof readTopicRanking>>>();
  for (const run of await readTopicRunNames(ws, topicId)) {
    const ranked = await readTopicRanking(ws, { run, topicId, k });
    if (ranked.length) rankings.set(run, ranked);
  }
  return {
    request: topic.request,
    questions: (await ws.questions({ topicId, kind: "subquestion" }))
      .sort((a, b) => a.ordinal - b.ordinal),
    typed: await readTopicTypes(ws, topicId),
    judge,
    ratings,
    grades: await readTopicGrades(ws, "crux_pr", topicId),
    rankings,
    reports: await readReportRuns(ws, topicId),
  };
}

/**
 * Renders a topic page, or undefined when the topic does not exist.
 *
 * @param ws The workspace.
 * @param topicId The topic.
 * @param opts `k` (default 10).
 * @returns The HTML page, or undefined.
 * @example
 * ```ts
 * import { topicPage } from "@lib/serve/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const html = await topicPage(ws, "sample-01", { k: 10 });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function topicPage(
  ws: Workspace,
  topicId: string,
  opts: TopicPageOptions = {},
): Promise<string | undefined> {
  const k = opts.k ?? 10;
  const rows = opts.rows ?? await readRows(ws, topicId, k);
  if (!rows) return undefined;
  const { questions, typed, judge, ratings } = rows;
  // A type stored with the question, else the typing step's type of the same text
  // (the CRUX sub-questions' own source first).
  const typeByText = new Map<string, string>();
  for (
    const t of [...typed].sort((a, b) => Number(b.source === "crux") - Number(a.source === "crux"))
  ) {
    if (t.type && !typeByText.has(loose(t.text))) typeByText.set(loose(t.text), t.type);
  }
  const typeOf = (q: { text: string; type?: string | null }) =>
    q.type ?? typeByText.get(loose(q.text)) ?? "";
  // This topic's P* grades only (not the whole qrels set).
  const grades = new Map<string, number>();
  for (const q of rows.grades) grades.set(q.docId, q.grade);
  const heatRow = (docId: string) => {
    const m = ratings.get(docId);
    return questions.map((q) => {
      const v = m?.get(q.questionId);
      return `<td class="heat" style="${heatStyle(v)}" title="${esc(q.questionId)}: ${
        v ?? "unrated"
      }">${v ?? ""}</td>`;
    });
  };
  const qHead = questions.map((q) => `q${q.ordinal}`);
  const pStar = [...grades].filter(([, g]) => g === 3).map(([id]) => id).sort(naturalCompare);
  const parts: string[] = [
    `<p class="text">${esc(rows.request)}</p>`,
    `<h2>Sub-questions (${questions.length})</h2>`,
    htmlTable(
      ["#", "sub-question", "answerable", "type"],
      questions.map((q) => [
        `q${q.ordinal}`,
        esc(q.text),
        q.answerable === undefined || q.answerable === null ? "?" : q.answerable ? "yes" : "no",
        esc(typeOf(q)),
      ]),
    ),
    ...typedSections(typed, questions.map((q) => loose(q.text))),
    `<h2>Required passages P* (${pStar.length})</h2>`,
    judge ? `<p class="muted">Ratings by judge ${esc(judge)}.</p>` : "",
    htmlTable(
      ["passage", "grade", ...qHead],
      [...grades].sort((a, b) => b[1] - a[1] || naturalCompare(a[0], b[0])).map(([id, g]) => [
        esc(id),
        `<td class="num">${g}</td>`,
        ...heatRow(id),
      ]),
    ),
  ];
  // The retrieval runs with a ranking of this topic (not every run's provenance).
  for (const [name, ranked] of rows.rankings) {
    const run = { run: name };
    const judged = ranked.filter((p) => ratings.has(p.docId)).length;
    parts.push(
      `<h2 id="run-${esc(run.run)}">${esc(run.run)}: top ${ranked.length}</h2>`,
      `<p class="muted">judged@${k}: ${
        (judged / k).toFixed(2)
      } (${judged} of ${ranked.length} retrieved rated` +
        (ranked.length < k ? `; the run retrieved ${ranked.length} < ${k}` : "") + `)</p>`,
      htmlTable(
        ["rank", "passage", "score", "grade", ...qHead, "text"],
        ranked.map((p) => [
          `<td class="num">${p.rank}</td>`,
          esc(p.docId),
          `<td class="num">${esc(p.score.toFixed(4))}</td>`,
          `<td class="num">${grades.get(p.docId) ?? ""}</td>`,
          ...heatRow(p.docId),
          p.text === undefined
            ? `<span class="muted">no text in the workspace</span>`
            : longText(p.text),
        ]),
      ),
    );
  }
  const reports = [...rows.reports].sort(naturalCompare);
  parts.push(
    `<h2>Reports (${reports.length})</h2>`,
    reports.length
      ? `<ul>${
        reports.map((r) => `<li><a href="/report/${seg(r)}/${seg(topicId)}">${esc(r)}</a></li>`)
          .join("")
      }</ul>` +
        (reports.length > 1
          ? `<p><a href="/compare/${seg(topicId)}">Compare two reports</a></p>`
          : "")
      : `<p class="muted">No reports for this topic.</p>`,
  );
  return page(`Topic ${topicId}`, parts.join("\n"), [[`/topic/${seg(topicId)}`, topicId]]);
}

/**
 * The typed sub-questions of every source whose texts are not the topic's own
 * sub-questions (a decomposition, a file): one table per source with the types.
 */
function typedSections(
  typed: { source: string; ordinal: number; text: string; type: string | null }[],
  own: string[],
): string[] {
  const shown = new Set(own);
  const sources = [...new Set(typed.map((t) => t.source))].sort(naturalCompare);
  const out: string[] = [];
  for (const source of sources) {
    const rows = typed.filter((t) => t.source === source);
    if (rows.every((t) => shown.has(loose(t.text)))) continue;
    const counts = new Map<string, number>();
    for (const t of rows) {
      counts.set(t.type ?? "untyped", (counts.get(t.type ?? "untyped") ?? 0) + 1);
    }
    out.push(
      `<h3>Typed sub-questions from ${esc(source)} (${rows.length}: ${
        esc([...counts].map(([t, n]) => `${t} ${n}`).join(", "))
      })</h3>`,
      htmlTable(
        ["#", "sub-question", "type"],
        rows.map((t) => [`<td class="num">${t.ordinal}</td>`, esc(t.text), esc(t.type ?? "")]),
      ),
    );
  }
  return out;
}
