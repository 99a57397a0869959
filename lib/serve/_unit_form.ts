// Private to `@lib/serve`: the form of a unit whose items are questions about one
// text (a report's sub-questions for answerability, a topic's sub-questions for
// types): one answer per question on one page, with the span of each answerable
// question, read back into labels or an error that names the question.
import type { QueuedItem } from "@lib/store/mod.ts";
import { ENGLISH_STOP_WORDS } from "@lib/text/mod.ts";
import { esc } from "./_html.ts";
import { SUBQUESTION_TYPE_LABELS } from "./create_annotation_task.ts";

/** The answers of an answerability question. */
export const ANSWERABLE: [string, string][] = [
  ["1", "Answerable from the report"],
  ["0", "Not answerable"],
];

/**
 * A radio group; with `focus`, the page opens on it (on the chosen answer, else the
 * first), so arrow keys choose and Enter saves without a mouse.
 */
export function radios(
  name: string,
  options: [string, string][],
  chosen?: string,
  focus = false,
): string {
  const at = focus ? (options.some(([v]) => v === chosen) ? chosen : options[0]?.[0]) : undefined;
  return options.map(([value, label]) =>
    `<label><input type="radio" name="${esc(name)}" value="${esc(value)}" required${
      chosen === value ? " checked" : ""
    }${at === value ? " autofocus" : ""}> ${esc(label)}</label><br>`
  ).join("");
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

/**
 * The span helper of a unit page: the question last focused is the one being
 * answered; words selected in the report (with the mouse, or with Shift and the
 * arrow keys) fill that question's span field and mark it answerable. A question's
 * "Select the span in the report" button moves the focus to the report; there,
 * Enter moves on to the next question (or the save button). "Not answerable"
 * disables the question's span field, so no span is sent. Without scripts the
 * buttons stay hidden and spans are typed or pasted.
 */
export const SPAN_SCRIPT = `(function () {
  var from = document.getElementById("report-text");
  var questions = document.querySelectorAll("fieldset[data-q]");
  if (!from || !questions.length) return;
  var current = 0;
  var hint = document.getElementById("span-target");
  var hintNumber = document.getElementById("target-number");
  function target(j) {
    current = j;
    if (hintNumber) hintNumber.textContent = String(j + 1);
  }
  // A read-only box takes no caret keys in some browsers: keep it editable for the
  // caret and the selection, and refuse every change instead.
  from.readOnly = false;
  from.setAttribute("aria-readonly", "true");
  from.addEventListener("beforeinput", function (e) { e.preventDefault(); });
  from.addEventListener("paste", function (e) { e.preventDefault(); });
  from.addEventListener("drop", function (e) { e.preventDefault(); });
  if (hint) hint.hidden = false;
  questions.forEach(function (fieldset) {
    var j = Number(fieldset.getAttribute("data-q"));
    var span = document.getElementById("span-" + j);
    fieldset.addEventListener("focusin", function () { target(j); });
    function sync() {
      var no = fieldset.querySelector('input[type="radio"][value="0"]');
      if (span) span.disabled = !!(no && no.checked);
    }
    fieldset.querySelectorAll('input[type="radio"]').forEach(function (radio) {
      radio.addEventListener("change", sync);
    });
    sync();
    var pick = fieldset.querySelector("button.pick");
    if (pick) {
      pick.hidden = false;
      pick.addEventListener("click", function () { target(j); from.focus(); });
    }
  });
  function take() {
    var words = from.value.substring(from.selectionStart, from.selectionEnd)
      .replace(/\\s+/g, " ").trim();
    var span = document.getElementById("span-" + current);
    if (!words || !span) return;
    var yes = document.querySelector('input[name="label-' + current + '"][value="1"]');
    if (yes) yes.checked = true;
    span.disabled = false;
    span.value = words;
  }
  from.addEventListener("select", take);
  from.addEventListener("mouseup", take);
  from.addEventListener("keyup", take);
  from.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== "Escape") return;
    e.preventDefault();
    var next = current + 1 < questions.length
      ? (document.querySelector('input[name="label-' + (current + 1) + '"]:checked') ||
        document.querySelector('input[name="label-' + (current + 1) + '"]'))
      : document.getElementById("save");
    if (next) next.focus();
  });
})();`;

/** What an annotator posted, shown again with a validation error. */
export type Posted = URLSearchParams | undefined;

/**
 * The answer of question `j` of a unit as the form shows it: what was posted (the
 * unit's fields `label-j`/`span-j`, or a single answer `label`/`span` for `item`),
 * else the stored answer.
 */
function shown(
  unit: QueuedItem[],
  j: number,
  item: QueuedItem,
  posted: Posted,
): { label?: string; span?: string } {
  if (posted?.has("label-0") || posted?.has(`label-${j}`)) {
    return {
      label: posted.get(`label-${j}`) ?? undefined,
      span: posted.get(`span-${j}`) ?? undefined,
    };
  }
  if (posted && unit[j] === item) {
    return { label: posted.get("label") ?? undefined, span: posted.get("span") ?? undefined };
  }
  return { label: unit[j].label, span: unit[j].span };
}

/**
 * The form fields of a unit: each question above its answers (and, for
 * answerability, its span field), then the report once, in a read-only box whose
 * words can be selected with the mouse or the keyboard.
 */
export function unitFields(
  task: string,
  unit: QueuedItem[],
  item: QueuedItem,
  texts: { report?: string; subquestions: { questionId: string; text: string }[] },
  posted: Posted,
): string {
  const question = (u: QueuedItem) =>
    texts.subquestions.find((s) => s.questionId === u.questionId)?.text ?? u.questionId ?? "";
  const n = unit.length;
  if (task === "types") {
    return unit.map((u, j) =>
      `<fieldset data-q="${j}"><legend>Sub-question ${j + 1} of ${n}: <strong>${
        esc(question(u))
      }</strong></legend>${
        radios(`label-${j}`, SUBQUESTION_TYPE_LABELS, shown(unit, j, item, posted).label, j === 0)
      }</fieldset>`
    ).join("");
  }
  const report = texts.report ?? "";
  const rows = Math.min(
    30,
    Math.max(4, Math.ceil(report.length / 90) + report.split("\n").length),
  );
  return `<p>Answer each question from the report below it.</p>` +
    unit.map((u, j) => {
      const now = shown(unit, j, item, posted);
      return `<fieldset data-q="${j}"><legend>Question ${j + 1} of ${n}: <strong>${
        esc(question(u))
      }</strong></legend>${radios(`label-${j}`, ANSWERABLE, now.label, j === 0)}` +
        `<p><label for="span-${j}">Supporting span for question ${j + 1} (words of the ` +
        `report; needed when answerable, ignored when not):</label><br>` +
        `<textarea id="span-${j}" name="span-${j}" rows="2">${esc(now.span ?? "")}</textarea>` +
        `<br><button type="button" class="pick" id="pick-${j}" hidden>Select the span of ` +
        `question ${j + 1} in the report</button></p></fieldset>`;
    }).join("") +
    `<p><label for="report-text">Report (select the words that answer a question):</label>` +
    `<br><span id="span-target" class="muted" hidden>Words selected here go to the span of ` +
    `question <span id="target-number">1</span>; Enter moves on to the next question.</span>` +
    `<br><textarea id="report-text" readonly rows="${rows}">${esc(report)}</textarea></p>`;
}

/** One answer read from a form, or the problem with it. */
function answer(
  task: string,
  label: string,
  rawSpan: string,
  report: string,
): { label: string; span?: string } | string {
  if (task === "types") {
    return SUBQUESTION_TYPE_LABELS.some(([v]) => v === label)
      ? { label }
      : "Choose one of the kinds";
  }
  if (label !== "0" && label !== "1") return "Choose answerable or not answerable";
  // "Not answerable" has no span, whatever the form still held.
  if (label === "0") return { label };
  const span = squash(rawSpan);
  if (!span) return "Select or paste the span of the report that answers the question";
  return spanProblem(span, report) ?? { label, span };
}

/**
 * The labels of a unit's form: fields `label-j` (and `span-j`) for every question,
 * or a single answer `label` (and `span`) for `item` alone, as a scripted client
 * may post. Returns the labels, or the problems, each naming its question.
 */
export function readUnitForm(
  task: string,
  form: URLSearchParams,
  unit: QueuedItem[],
  item: QueuedItem,
  report: string,
): { itemId: string; label: string; span?: string }[] | string {
  if (!form.has("label-0") && !unit.some((_, j) => form.has(`label-${j}`))) {
    const one = answer(task, form.get("label") ?? "", form.get("span") ?? "", report);
    return typeof one === "string" ? one : [{ itemId: item.itemId, ...one }];
  }
  const out: { itemId: string; label: string; span?: string }[] = [];
  const problems: string[] = [];
  for (const [j, u] of unit.entries()) {
    const one = answer(task, form.get(`label-${j}`) ?? "", form.get(`span-${j}`) ?? "", report);
    if (typeof one === "string") problems.push(`Question ${j + 1}: ${one}`);
    else out.push({ itemId: u.itemId, ...one });
  }
  return problems.length ? problems.join(". ") : out;
}
