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
  readRunProvenance,
  readTopicRanking,
  type Workspace,
} from "@lib/store/mod.ts";
import { esc, heatStyle, htmlTable, page, seg } from "./_html.ts";

/** Options of {@linkcode topicPage}. */
export interface TopicPageOptions {
  /** Passages shown per run. Default 10. */
  k?: number;
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
  const [topic] = (await ws.topics()).filter((t) => t.topicId === topicId);
  if (!topic) return undefined;
  const questions = (await ws.questions({ topicId, kind: "subquestion" }))
    .sort((a, b) => a.ordinal - b.ordinal);
  // No passage judge (nothing rated yet) or several without a rule to choose: no heat rows.
  const judge = await passageJudge(ws, "show passage ratings").catch(() => undefined);
  const ratings = new Map<string, Map<string, number>>();
  if (judge) {
    for (const r of await ws.ratings({ topicId, judge })) {
      let m = ratings.get(r.itemId);
      if (!m) ratings.set(r.itemId, m = new Map());
      m.set(r.questionId, r.rating);
    }
  }
  const names = await ws.qrelsNames();
  const grades = new Map<string, number>();
  if (names.includes("crux_pr")) {
    for (const q of await ws.qrels("crux_pr")) {
      if (q.topicId === topicId && (q.subtopic ?? "0") === "0") grades.set(q.docId, q.grade);
    }
  }
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
  const pStar = [...grades].filter(([, g]) => g === 3).map(([id]) => id).sort();
  const parts: string[] = [
    `<p class="text">${esc(topic.request)}</p>`,
    `<h2>Sub-questions (${questions.length})</h2>`,
    htmlTable(
      ["#", "sub-question", "answerable", "type"],
      questions.map((q) => [
        `q${q.ordinal}`,
        esc(q.text),
        q.answerable === undefined || q.answerable === null ? "?" : q.answerable ? "yes" : "no",
        esc(q.type ?? ""),
      ]),
    ),
    `<h2>Required passages P* (${pStar.length})</h2>`,
    judge ? `<p class="muted">Ratings by judge ${esc(judge)}.</p>` : "",
    htmlTable(
      ["passage", "grade", ...qHead],
      [...grades].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id, g]) => [
        esc(id),
        `<td class="num">${g}</td>`,
        ...heatRow(id),
      ]),
    ),
  ];
  const runs = (await readRunProvenance(ws)).filter((r) => r.role === "retrieval");
  for (const run of runs) {
    const ranked = await readTopicRanking(ws, { run: run.run, topicId, k });
    if (ranked.length === 0) continue;
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
            : `<span class="text">${
              esc(p.text.length > 300 ? p.text.slice(0, 297) + "..." : p.text)
            }</span>`,
        ]),
      ),
    );
  }
  const reports = await readReportRuns(ws, topicId);
  parts.push(
    `<h2>Reports (${reports.length})</h2>`,
    reports.length
      ? `<ul>${
        reports.map((r) => `<li><a href="/report/${seg(r)}/${seg(topicId)}">${esc(r)}</a></li>`)
          .join("")
      }</ul>` +
        (reports.length > 1
          ? `<p><a href="/compare/${seg(topicId)}?a=${seg(reports[0])}&amp;b=${
            seg(reports[1])
          }">Compare two reports</a></p>`
          : "")
      : `<p class="muted">No reports for this topic.</p>`,
  );
  return page(`Topic ${topicId}`, parts.join("\n"), [[`/topic/${seg(topicId)}`, topicId]]);
}
