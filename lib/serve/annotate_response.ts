/**
 * `annotateResponse`: the annotation pages under `/annotate/<token>`: an annotator's
 * queue with progress and one page per unit with a plain HTML form (a report with
 * all its sub-questions, an answer with all its facts, a topic with all its
 * sub-questions to type: the long text is read once). Both pages carry the task's
 * instructions and rating scale; a unit page shows the questions before the long
 * text and opens with the focus on the first answer. The answers of a page are
 * saved together in one transaction; a token reads and writes only its own
 * annotator's items, and a write must come from one of the server's origins.
 *
 * @module
 */
import {
  type QueuedItem,
  readAnnotatorByToken,
  readAnnotatorQueue,
  readItemTexts,
  saveAnnotationLabels,
  type Workspace,
} from "@lib/store/mod.ts";
import { SUBQUESTION_TYPE_LABELS, tokenHash } from "./create_annotation_task.ts";
import { esc, newNonce, page, script, seg } from "./_html.ts";
import {
  ANSWERABLE,
  type Posted,
  radios,
  readUnitForm,
  SPAN_SCRIPT,
  unitFields,
} from "./_unit_form.ts";
import { originAllowed } from "./_origins.ts";

/** Options of {@linkcode annotateResponse}. */
export interface AnnotateOptions {
  /** The server's own origin (`http://127.0.0.1:8765`); default the request URL's origin. */
  origin?: string;
  /**
   * Every origin answers may come from (loopback names, the public URL); when
   * given, it replaces `origin` and its `localhost` twin.
   */
  origins?: ReadonlySet<string>;
}

/**
 * The 0-5 passage scale: every point weighs how relevant the passage is to the
 * question, how completely it answers it, and how accurate what it says is.
 */
const RUBRIC: [number, string][] = [
  [5, "highly relevant to the question, complete (answers all of it) and accurate"],
  [4, "mostly relevant and mostly complete; a small gap or a minor inaccuracy"],
  [3, "partly relevant and partly complete; clear gaps or inaccuracies"],
  [2, "of limited relevance and far from complete; large gaps or inaccuracies"],
  [1, "barely relevant and barely complete; serious gaps or inaccuracies"],
  [0, "not relevant and not complete at all: nothing in it answers the question accurately"],
];

const NUGGET_LABELS: [string, string][] = [
  ["support", "Supported: the answer states the fact"],
  ["partial_support", "Partly supported: the answer states some of the fact"],
  ["not_support", "Not supported: the answer does not state the fact"],
];

/** What an annotator is asked to do, per task: plain-text paragraphs. */
const INSTRUCTIONS: Record<string, string[]> = {
  answerability: [
    "Read the questions first, then the report. Answer each question on its own. Judge " +
    "by the report alone, not by what you know about the subject.",
    'Choose "Answerable from the report" when the report states an answer a reader could ' +
    "use, then select (or copy) the words of the report that give it: a phrase or a " +
    'sentence, not a lone word like "the". Words selected in the report go to the span ' +
    "of the question you last worked on.",
    'Choose "Not answerable" when the report does not answer the question or only ' +
    "touches on its subject; no span is needed then.",
  ],
  passages: [
    "Read the questions first, then the passage. Rate each question on its own: how well " +
    "does this passage, and nothing else, answer it?",
    "Every point of the scale weighs three things: is the passage relevant to the " +
    "question, does it answer it completely, and is what it says accurate.",
  ],
  nuggets: [
    "A fact is a short statement that a good answer to the request should contain. Read " +
    "the fact first, then the answer.",
    "Judge only whether the answer states the fact. The wording may differ; the meaning " +
    "must be the same. Whether the answer is good in other ways does not count here.",
  ],
  preference: [
    "Read the request, then both answers. Choose the one that responds to the request " +
    "better: it covers more of what was asked, what it says is accurate, and it says it " +
    "clearly.",
    'Choose "Equally good" only when neither answer is better. The order of the answers ' +
    "says nothing about where they come from.",
  ],
  types: [
    "A sub-question is one step of answering a topic's main question. Read the main " +
    "question (the request), then each sub-question, and choose what kind of step it is.",
  ],
};

/** The scale of a task: each answer with what it means. */
function rubric(task: string): [string, string][] {
  if (task === "answerability") {
    return [
      [ANSWERABLE[0][1], "the report itself states an answer; give the words that state it"],
      [ANSWERABLE[1][1], "the report has no usable answer, or only mentions the subject"],
    ];
  }
  if (task === "passages") return RUBRIC.map(([r, s]) => [String(r), `the passage is ${s}`]);
  if (task === "nuggets") return NUGGET_LABELS.map(([, l]) => l.split(": ") as [string, string]);
  if (task === "types") {
    return SUBQUESTION_TYPE_LABELS.map(([, l]) => l.split(": ") as [string, string]);
  }
  if (task === "preference") {
    return PREFERENCES.map((
      [, l],
    ) => [l, l === "Equally good" ? "neither is better" : "it responds better to the request"]);
  }
  return [];
}

/** The instructions and the scale of a task, as HTML. */
function guide(task: string): string {
  return (INSTRUCTIONS[task] ?? []).map((p) => `<p>${esc(p)}</p>`).join("") +
    `<dl class="rubric">${
      rubric(task).map(([k, v]) => `<dt><strong>${esc(k)}</strong></dt><dd>${esc(v)}</dd>`).join("")
    }</dl>`;
}

const PREFERENCES: [string, string][] = [
  ["A", "Answer A is better"],
  ["B", "Answer B is better"],
  ["tie", "Equally good"],
];

function respond(
  body: string,
  status = 200,
  headers: Record<string, string> = {},
  nonce?: string,
): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": `default-src 'self'; script-src ${
        nonce ? `'nonce-${nonce}'` : "'none'"
      }; style-src 'unsafe-inline'; form-action 'self'`,
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
      "cache-control": "no-store",
      ...headers,
    },
  });
}

function refuse(message: string, status = 403): Response {
  return respond(page("Not allowed", `<p>${esc(message)}</p>`, [], { home: false }), status);
}

const TITLES: Record<string, string> = {
  answerability: "Can the report answer the question?",
  passages: "How well does the passage answer each question?",
  nuggets: "Does the answer contain the fact?",
  preference: "Which answer is better?",
  types: "What kind of sub-question is it?",
};

const done = (q: QueuedItem[]) => q.filter((i) => i.label !== undefined).length;

function progress(queue: QueuedItem[]): string {
  const n = done(queue);
  return `<p><strong>Progress: ${n} / ${queue.length} done</strong> ` +
    `<progress max="${queue.length}" value="${n}"></progress></p>`;
}

function queuePage(base: string, task: string, annotator: string, queue: QueuedItem[]): string {
  const pages = pagesOf(task, queue);
  const next = pages.find((p) => p.some((i) => i.label === undefined));
  const rows = pages.map((p, k) => {
    const answered = p.filter((i) => i.label !== undefined).length;
    const status = answered === p.length
      ? "done"
      : answered
      ? `${answered} of ${p.length}`
      : "to do";
    const what = p.length > 1
      ? `unit ${esc(p[0].unit)} (${p.length} items)`
      : `item ${esc(p[0].itemId)}`;
    return `<tr><td class="num">${k + 1}</td><td><a href="${base}/${
      seg(p[0].itemId)
    }">${what}</a>` +
      `</td><td>${status}</td></tr>`;
  }).join("");
  return page(
    `Annotation: ${task}`,
    `<p>Annotator <strong>${esc(annotator)}</strong>. ${esc(TITLES[task] ?? "")}</p>` +
      progress(queue) +
      (next
        ? `<p><a href="${base}/${seg(next[0].itemId)}">Continue with the next item</a></p>`
        : `<p>All items are done. Thank you.</p>`) +
      `<h2>Instructions</h2>${guide(task)}` +
      `<table><thead><tr><th>#</th><th>page</th><th>status</th></tr></thead><tbody>${rows}</tbody></table>`,
    [[base, "Queue"]],
    { home: false },
  );
}

const text = (t: string | undefined) =>
  t === undefined
    ? `<p class="muted">(no text in the workspace)</p>`
    : `<div class="text">${esc(t)}</div>`;

/** Tasks whose page shows a whole unit: a report's sub-questions, an answer's facts. */
const UNIT_TASKS = new Set(["answerability", "nuggets", "types"]);

/** The items shown on one page with `item`: its whole unit, else the item alone. */
function unitOf(task: string, queue: QueuedItem[], item: QueuedItem): QueuedItem[] {
  return UNIT_TASKS.has(task) ? queue.filter((i) => i.unit === item.unit) : [item];
}

/** The pages of a queue in order: each unit's items (or each item alone). */
function pagesOf(task: string, queue: QueuedItem[]): QueuedItem[][] {
  if (!UNIT_TASKS.has(task)) return queue.map((i) => [i]);
  return [...Map.groupBy(queue, (i) => i.unit).values()];
}

async function itemPage(
  ws: Workspace,
  base: string,
  task: string,
  queue: QueuedItem[],
  item: QueuedItem,
  error = "",
  posted?: Posted,
  nonce?: string,
): Promise<string> {
  const t = await readItemTexts(ws, item);
  const chosen = posted ? posted.get("label") ?? undefined : item.label;
  const unit = unitOf(task, queue, item);
  const pages = pagesOf(task, queue);
  const shown = unit.map((i) => queue.indexOf(i) + 1);
  const k = pages.length < queue.length
    ? `Unit ${pages.findIndex((p) => p.includes(item)) + 1} of ${pages.length} ` +
      `(items ${Math.min(...shown)}-${Math.max(...shown)} of ${queue.length})`
    : `Item ${shown[0]} of ${queue.length}`;
  const answered = unit.filter((i) => i.label !== undefined).length;
  let body = `<p>${k}${
    answered ? ` - ${answered} of ${unit.length} answered; you may change the answers` : ""
  }</p>${progress(queue)}`;
  if (error) body += `<p class="error">${esc(error)}</p>`;
  // Open on the first item, folded once the annotator has seen it.
  body += `<details${done(queue) === 0 ? " open" : ""}><summary>Instructions and ` +
    `rating scale</summary>${guide(task)}</details>`;
  body += `<h2>Request</h2>${text(t.request)}`;
  let form = "";
  // The long texts, shown under the form: the question is read first.
  let after = "";
  if (task === "answerability" || task === "types") {
    // Every question of the unit, then the report once (answerability).
    form = unitFields(task, unit, item, t, posted) +
      (task === "answerability" && nonce ? script(nonce, SPAN_SCRIPT) : "");
  } else if (task === "passages") {
    const given: Record<string, number> = posted
      ? Object.fromEntries(
        t.subquestions.flatMap((q, i) => {
          const v = posted.get(`q${i}`);
          return v !== null && /^[0-5]$/.test(v) ? [[q.questionId, Number(v)]] : [];
        }),
      )
      : item.label
      ? JSON.parse(item.label)
      : {};
    after = `<h2>Passage</h2>${text(t.passage)}`;
    form = `<p>Rate each question: 5 relevant, complete and accurate; 0 not relevant ` +
      `and no answer (the full scale is under "Instructions and rating scale").</p>` +
      t.subquestions.map((q, i) =>
        `<fieldset><legend>Question ${i + 1} of ${t.subquestions.length}: ${esc(q.text)}</legend>${
          radios(
            `q${i}`,
            RUBRIC.map(([r]) => [String(r), String(r)] as [string, string]).reverse(),
            given[q.questionId] === undefined ? undefined : String(given[q.questionId]),
            i === 0,
          ).replaceAll("<br>", " ")
        }</fieldset>`
      ).join("");
  } else if (task === "nuggets") {
    // Every fact of the answer on one page, so the answer is read once.
    const facts: (string | undefined)[] = [];
    for (const u of unit) facts.push(u === item ? t.nugget : (await readItemTexts(ws, u)).nugget);
    after = `<h2>Answer</h2>${text(t.report)}`;
    form = `<p>Does the answer below state each fact?</p>` +
      unit.map((u, j) =>
        `<fieldset><legend>Fact ${j + 1} of ${unit.length}: <strong>${
          esc(facts[j] ?? "")
        }</strong></legend>${
          radios(
            `f${j}`,
            NUGGET_LABELS,
            posted ? posted.get(`f${j}`) ?? undefined : u.label,
            j === 0,
          )
        }</fieldset>`
      ).join("");
  } else {
    after = `<div class="cols"><div><h2>Answer A</h2>${text(t.report)}</div>` +
      `<div><h2>Answer B</h2>${text(t.reportB)}</div></div>`;
    form = `<fieldset><legend>Which answer, shown below, responds better to the request?` +
      `</legend>${radios("label", PREFERENCES, chosen, true)}</fieldset>`;
  }
  body += `<form method="post" action="${base}/${seg(item.itemId)}">${form}` +
    `<p><button type="submit" id="save">Save and continue</button> ` +
    `<span class="muted">(Tab moves between answers, the arrow keys choose, Enter saves)` +
    `</span></p></form>${after}`;
  return page(TITLES[task] ?? task, body, [[base, "Queue"]], { home: false });
}

/** The label of a one-item form (passages, preference), or an error message. */
function readForm(
  task: string,
  form: URLSearchParams,
  texts: { report?: string; subquestions: { questionId: string }[] },
): { label: string; span?: string } | string {
  const label = form.get("label") ?? "";
  if (task === "passages") {
    const ratings: Record<string, number> = {};
    for (const [i, q] of texts.subquestions.entries()) {
      const v = form.get(`q${i}`) ?? "";
      if (!/^[0-5]$/.test(v)) return `Rate question ${i + 1} from 0 to 5`;
      ratings[q.questionId] = Number(v);
    }
    return { label: JSON.stringify(ratings) };
  }
  if (!PREFERENCES.some(([v]) => v === label)) return "Choose one of the answers";
  return { label };
}

/** The labels of every fact on a page (`f0`, `f1`, ...), or an error message. */
function readFacts(
  form: URLSearchParams,
  unit: QueuedItem[],
): { itemId: string; label: string }[] | string {
  const out: { itemId: string; label: string }[] = [];
  for (const [j, u] of unit.entries()) {
    const label = form.get(`f${j}`) ?? "";
    if (!NUGGET_LABELS.some(([v]) => v === label)) {
      return `Choose an answer for fact ${j + 1}`;
    }
    out.push({ itemId: u.itemId, label });
  }
  return out;
}

/** The server's origin, and the same port under `localhost` when bound to 127.0.0.1. */
function ownOrigins(origin: string): string[] {
  const u = new URL(origin);
  return u.hostname === "127.0.0.1" ? [origin, `${u.protocol}//localhost:${u.port}`] : [origin];
}

/**
 * Answers a request under `/annotate/<token>`: GET the queue, GET `/<item>` the page
 * of the item's unit, POST `/<item>` its form (saved, then redirected to the next
 * unit with an unanswered item). An answerability or types page holds every
 * sub-question of its unit (fields `label-0`, `span-0`, `label-1`, ...; a single
 * `label` and `span` answers the item alone), a fact page every fact of its answer
 * (fields `f0`, `f1`, ...); the answers of a page are saved in one transaction.
 * Unknown tokens and items outside the token's queue get 403, as does a POST whose
 * `Origin` (or, without one, `Referer`) is not one of `opts.origins` (by default the
 * server's own origin; for a server on 127.0.0.1, `localhost` with the same port
 * counts as its own). A 303 ("saved") is sent only after the answer is committed.
 *
 * @param ws The workspace (read-write for POST).
 * @param request The request.
 * @param opts The server's origin, or every allowed origin.
 * @returns The response.
 * @example
 * ```ts
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { annotateResponse } from "@lib/serve/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const r = await annotateResponse(ws, new Request("http://127.0.0.1/annotate/abc"));
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function annotateResponse(
  ws: Workspace,
  request: Request,
  opts: AnnotateOptions = {},
): Promise<Response> {
  const url = new URL(request.url);
  let parts: string[];
  try {
    parts = url.pathname.split("/").filter(Boolean).map((p) => decodeURIComponent(p));
  } catch {
    return refuse(`The address ${url.pathname} is not valid`, 400);
  }
  if (parts[0] !== "annotate" || parts.length < 2 || parts.length > 3) {
    return refuse(`No annotation page at ${url.pathname}`, 404);
  }
  const [, token, itemId] = parts;
  const who = /^[0-9a-f]{16,128}$/.test(token)
    ? await readAnnotatorByToken(ws, await tokenHash(token))
    : undefined;
  if (!who) return refuse("This link is not valid: ask for your annotation link again");
  const base = `/annotate/${seg(token)}`;
  const queue = await readAnnotatorQueue(ws, who.task, who.annotator);
  if (itemId === undefined) {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return new Response("Only GET here", { status: 405 });
    }
    return respond(queuePage(base, who.task, who.annotator, queue));
  }
  const item = queue.find((i) => i.itemId === itemId);
  if (!item) return refuse(`Item ${itemId} is not in your queue`);
  if (request.method === "GET" || request.method === "HEAD") {
    const nonce = newNonce();
    return respond(
      await itemPage(ws, base, who.task, queue, item, "", undefined, nonce),
      200,
      {},
      nonce,
    );
  }
  if (request.method !== "POST") return new Response("GET or POST only", { status: 405 });
  if (!originAllowed(request, opts.origins ?? new Set(ownOrigins(opts.origin ?? url.origin)))) {
    return refuse("Answers are accepted only from this server's own pages");
  }
  const form = new URLSearchParams(await request.text());
  const texts = await readItemTexts(ws, item);
  const unit = unitOf(who.task, queue, item);
  const parsed = who.task === "nuggets"
    ? readFacts(form, unit)
    : who.task === "answerability" || who.task === "types"
    ? readUnitForm(who.task, form, unit, item, texts.report ?? "")
    : readForm(who.task, form, texts);
  if (typeof parsed === "string") {
    const nonce = newNonce();
    return respond(
      await itemPage(ws, base, who.task, queue, item, parsed, form, nonce),
      400,
      {},
      nonce,
    );
  }
  const labels = Array.isArray(parsed) ? parsed : [{ itemId, ...parsed }];
  // The page's answers in one transaction: all stored, or (after a crash) none.
  await saveAnnotationLabels(ws, who.task, who.annotator, labels);
  const k = queue.indexOf(item);
  const saved = new Set(labels.map((l) => l.itemId));
  const next = [...queue.slice(k + 1), ...queue.slice(0, k)].find((i) =>
    i.label === undefined && !saved.has(i.itemId)
  );
  return new Response(null, {
    status: 303,
    headers: { location: next ? `${base}/${seg(next.itemId)}` : base },
  });
}
