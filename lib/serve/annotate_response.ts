/**
 * `annotateResponse`: the annotation pages under `/annotate/<token>`: an annotator's
 * queue with progress and one page per item with a plain HTML form. Every posted
 * answer is saved at once; a token reads and writes only its own annotator's items,
 * and a write must come from the server's own origin.
 *
 * @module
 */
import {
  type QueuedItem,
  readAnnotatorByToken,
  readAnnotatorQueue,
  readItemTexts,
  saveAnnotationLabel,
  type Workspace,
} from "@lib/store/mod.ts";
import { SUBQUESTION_TYPE_LABELS, tokenHash } from "./create_annotation_task.ts";
import { ENGLISH_STOP_WORDS } from "@lib/text/mod.ts";
import { esc, newNonce, page, script, seg } from "./_html.ts";
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

const RUBRIC: [number, string][] = [
  [5, "answers the sub-question fully and directly"],
  [4, "answers it, with a detail missing or a little indirectly"],
  [3, "answers it in part; a reader learns something essential"],
  [2, "touches on it, without an answer a reader could use"],
  [1, "shares its topic, but says nothing about the sub-question"],
  [0, "has nothing to do with the sub-question"],
];

const NUGGET_LABELS: [string, string][] = [
  ["support", "Supported: the answer states the nugget"],
  ["partial_support", "Partly supported: the answer states some of it"],
  ["not_support", "Not supported"],
];

const PREFERENCES: [string, string][] = [["A", "Answer A is better"], [
  "B",
  "Answer B is better",
], ["tie", "Equally good"]];

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
  const next = queue.find((i) => i.label === undefined);
  const rows = queue.map((item, k) =>
    `<tr><td class="num">${k + 1}</td><td><a href="${base}/${seg(item.itemId)}">item ${
      esc(item.itemId)
    }</a></td><td>${item.label === undefined ? "to do" : "done"}</td></tr>`
  ).join("");
  return page(
    `Annotation: ${task}`,
    `<p>Annotator <strong>${esc(annotator)}</strong>. ${esc(TITLES[task] ?? "")}</p>` +
      progress(queue) +
      (next
        ? `<p><a href="${base}/${seg(next.itemId)}">Continue with the next item</a></p>`
        : `<p>All items are done. Thank you.</p>`) +
      `<table><thead><tr><th>#</th><th>item</th><th>status</th></tr></thead><tbody>${rows}</tbody></table>`,
    [[base, "Queue"]],
    { home: false },
  );
}

function radios(name: string, options: [string, string][], chosen?: string): string {
  return options.map(([value, label]) =>
    `<label><input type="radio" name="${esc(name)}" value="${esc(value)}" required${
      chosen === value ? " checked" : ""
    }> ${esc(label)}</label><br>`
  ).join("");
}

const text = (t: string | undefined) =>
  t === undefined
    ? `<p class="muted">(no text in the workspace)</p>`
    : `<div class="text">${esc(t)}</div>`;

/**
 * The span helper: the button under a report copies the words selected in it (by
 * mouse, or with Shift and the arrow keys) into the span field; choosing "Not
 * answerable" disables the span field, so no span is sent. Without scripts the
 * button stays hidden and the span is typed or pasted.
 */
const SPAN_SCRIPT = `(function () {
  var from = document.getElementById("report-text");
  var to = document.getElementById("span");
  var use = document.getElementById("use-selection");
  if (!from || !to || !use) return;
  // A read-only box takes no caret keys in some browsers: keep it editable for the
  // caret and the selection, and refuse every change instead.
  from.readOnly = false;
  from.setAttribute("aria-readonly", "true");
  from.addEventListener("beforeinput", function (e) { e.preventDefault(); });
  from.addEventListener("paste", function (e) { e.preventDefault(); });
  from.addEventListener("drop", function (e) { e.preventDefault(); });
  use.hidden = false;
  use.addEventListener("click", function () {
    var words = from.value.substring(from.selectionStart, from.selectionEnd)
      .replace(/\\s+/g, " ").trim();
    if (!words) return;
    var yes = document.querySelector('input[name="label"][value="1"]');
    if (yes) { yes.checked = true; to.disabled = false; }
    to.value = words;
    to.focus();
  });
  document.querySelectorAll('input[name="label"]').forEach(function (radio) {
    radio.addEventListener("change", function () { to.disabled = radio.value === "0"; });
  });
  var no = document.querySelector('input[name="label"][value="0"]');
  if (no && no.checked) to.disabled = true;
})();`;

/** What an annotator posted, shown again with a validation error. */
type Posted = URLSearchParams | undefined;

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
  const k = queue.indexOf(item) + 1;
  let body = `<p>Item ${k} of ${queue.length} (id ${esc(item.itemId)})${
    item.label !== undefined ? " - answered; you may change the answer" : ""
  }</p>${progress(queue)}`;
  if (error) body += `<p class="error">${esc(error)}</p>`;
  body += `<h2>Request</h2>${text(t.request)}`;
  let form = "";
  if (task === "answerability") {
    const q = t.subquestions.find((s) => s.questionId === item.questionId);
    const span = posted ? posted.get("span") ?? "" : item.span ?? "";
    const report = t.report ?? "";
    // The report in a read-only text box: its words can be selected with the mouse
    // or, from the keyboard, with Shift and the arrow keys.
    const rows = Math.min(
      30,
      Math.max(4, Math.ceil(report.length / 90) + report.split("\n").length),
    );
    form = `<fieldset><legend>Question: <strong>${esc(q?.text ?? item.questionId)}</strong>` +
      `</legend>${
        radios("label", [["1", "Answerable from the report"], ["0", "Not answerable"]], chosen)
      }<p><label for="report-text">Report (select the words that answer the question):</label>` +
      `<br><textarea id="report-text" readonly rows="${rows}">${esc(report)}</textarea><br>` +
      `<button type="button" id="use-selection" hidden>Use the selected words as the span</button>` +
      `</p><p><label>Supporting span (words of the report; needed when answerable, ` +
      `ignored when not):<br><textarea id="span" name="span" rows="3">${
        esc(span)
      }</textarea></label></p></fieldset>` + (nonce ? script(nonce, SPAN_SCRIPT) : "");
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
    body += `<h2>Passage</h2>${text(t.passage)}<h2>Rubric</h2><ul>${
      RUBRIC.map(([r, s]) => `<li><strong>${r}</strong>: the passage ${esc(s)}</li>`).join("")
    }</ul>`;
    form = t.subquestions.map((q, i) =>
      `<fieldset><legend>${i + 1}. ${esc(q.text)}</legend>${
        radios(
          `q${i}`,
          RUBRIC.map(([r]) => [String(r), String(r)] as [string, string]).reverse(),
          given[q.questionId] === undefined ? undefined : String(given[q.questionId]),
        ).replaceAll("<br>", " ")
      }</fieldset>`
    ).join("");
  } else if (task === "nuggets") {
    body += `<h2>Answer</h2>${text(t.report)}`;
    form = `<fieldset><legend>Fact: <strong>${esc(t.nugget ?? "")}</strong></legend>${
      radios("label", NUGGET_LABELS, chosen)
    }</fieldset>`;
  } else if (task === "types") {
    const q = t.subquestions.find((s) => s.questionId === item.questionId);
    form = `<fieldset><legend>Sub-question: <strong>${esc(q?.text ?? "")}</strong></legend>${
      radios("label", SUBQUESTION_TYPE_LABELS, chosen)
    }</fieldset>`;
  } else {
    body += `<div class="cols"><div><h2>Answer A</h2>${text(t.report)}</div>` +
      `<div><h2>Answer B</h2>${text(t.reportB)}</div></div>`;
    form = `<fieldset><legend>Which answer responds better to the request?</legend>${
      radios("label", PREFERENCES, chosen)
    }</fieldset>`;
  }
  body += `<form method="post" action="${base}/${seg(item.itemId)}">${form}` +
    `<p><button type="submit" id="save">Save and continue</button></p></form>`;
  return page(TITLES[task] ?? task, body, [[base, "Queue"]], { home: false });
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** Words of a text for comparing spans: lower case, letters and digits only. */
function words(s: string): string[] {
  return s.normalize("NFKC").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * Why a span cannot support an answer, or undefined when it can: it must occur in
 * the report once case, spacing and punctuation are set aside, and hold a word
 * that is not a stop word ("the", "a").
 */
export function spanProblem(span: string, report: string): string | undefined {
  const w = words(span);
  if (!w.some((x) => !ENGLISH_STOP_WORDS.has(x) && (x.length > 1 || /\p{N}/u.test(x)))) {
    return 'The span needs words that answer the question, not only words like "the" or "a"';
  }
  const haystack = ` ${words(report).join(" ")} `;
  if (!haystack.includes(` ${w.join(" ")} `)) {
    return "The span is not in the report: select or copy it from the report's text";
  }
  return undefined;
}

/** The label a form gives, or an error message for the annotator. */
function readForm(
  task: string,
  form: URLSearchParams,
  texts: { report?: string; subquestions: { questionId: string }[] },
): { label: string; span?: string } | string {
  const label = form.get("label") ?? "";
  if (task === "answerability") {
    if (label !== "0" && label !== "1") return "Choose answerable or not answerable";
    // "Not answerable" has no span, whatever the form still held.
    if (label === "0") return { label };
    const span = squash(form.get("span") ?? "");
    if (!span) return "Select or paste the span of the report that answers the question";
    const problem = spanProblem(span, texts.report ?? "");
    return problem ?? { label, span };
  }
  if (task === "passages") {
    const ratings: Record<string, number> = {};
    for (const [i, q] of texts.subquestions.entries()) {
      const v = form.get(`q${i}`) ?? "";
      if (!/^[0-5]$/.test(v)) return `Rate question ${i + 1} from 0 to 5`;
      ratings[q.questionId] = Number(v);
    }
    return { label: JSON.stringify(ratings) };
  }
  const allowed = task === "nuggets"
    ? NUGGET_LABELS
    : task === "types"
    ? SUBQUESTION_TYPE_LABELS
    : PREFERENCES;
  if (!allowed.some(([v]) => v === label)) return "Choose one of the answers";
  return { label };
}

/** The server's origin, and the same port under `localhost` when bound to 127.0.0.1. */
function ownOrigins(origin: string): string[] {
  const u = new URL(origin);
  return u.hostname === "127.0.0.1" ? [origin, `${u.protocol}//localhost:${u.port}`] : [origin];
}

/**
 * Answers a request under `/annotate/<token>`: GET the queue, GET `/<item>` an item,
 * POST `/<item>` a form (saved, then redirected to the next unanswered item).
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
  const parsed = readForm(who.task, form, texts);
  if (typeof parsed === "string") {
    const nonce = newNonce();
    return respond(
      await itemPage(ws, base, who.task, queue, item, parsed, form, nonce),
      400,
      {},
      nonce,
    );
  }
  await saveAnnotationLabel(ws, { task: who.task, annotator: who.annotator, itemId, ...parsed });
  const k = queue.indexOf(item);
  const next = [...queue.slice(k + 1), ...queue.slice(0, k)].find((i) => i.label === undefined);
  return new Response(null, {
    status: 303,
    headers: { location: next ? `${base}/${seg(next.itemId)}` : base },
  });
}
