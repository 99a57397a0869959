/**
 * An annotator that answers the answerability pages of a real `crux serve --annotate`
 * server like a person with a browser: it opens its queue, follows every page link
 * (one page per report, with all its questions), reads the questions and the report,
 * and posts the page's form. What it answers is a rule of
 * the question's text, so a test knows every label it gave.
 */
import assert from "node:assert/strict";

/** The label an annotator gives a question: `span` (a sentence of the report) when answerable. */
export type AnswerRule = (question: string, report: string) => { label: "0" | "1"; span?: string };

const unescape = (s: string) =>
  s.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'").replaceAll("&amp;", "&");

/**
 * The annotators' secret links from the output of `crux annotate create` (one
 * "name<TAB>link" line each), as name -> token.
 */
export function annotatorTokens(createOutput: string): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const line of createOutput.split("\n")) {
    const m = /^(\S+)\t\S*\/annotate\/([0-9a-f]+)\s*$/.exec(line);
    if (m) tokens.set(m[1], m[2]);
  }
  return tokens;
}

/**
 * Answers every page of `token`'s queue at `base` by `rule`; returns the number of
 * answers posted (each page acknowledged with a redirect, as a browser form post is).
 */
export async function annotateQueue(
  base: string,
  token: string,
  rule: AnswerRule,
): Promise<number> {
  const queue = await fetch(`${base}/annotate/${token}`);
  assert.equal(queue.status, 200, `queue of ${token}`);
  const html = await queue.text();
  const items = [
    ...new Set(
      [...html.matchAll(new RegExp(`href="(/annotate/${token}/[^"]+)"`, "g"))].map((m) => m[1]),
    ),
  ];
  assert.ok(items.length > 0, "the queue links its items");
  let answers = 0;
  for (const path of items) {
    const page = await fetch(base + unescape(path));
    assert.equal(page.status, 200, path);
    const text = await page.text();
    // One page per report: every question of the unit above the report, shown once.
    const questions = [...text.matchAll(/Question (\d+) of \d+: <strong>([^<]*)<\/strong>/g)]
      .map((m) => ({ j: Number(m[1]) - 1, text: unescape(m[2]) }));
    const report = /<textarea id="report-text"[^>]*>([^<]*)<\/textarea>/.exec(text);
    assert.ok(questions.length > 0 && report, `${path}: questions and a report`);
    const form = new URLSearchParams();
    for (const q of questions) {
      const answer = rule(q.text, unescape(report[1]));
      form.set(`label-${q.j}`, answer.label);
      form.set(`span-${q.j}`, answer.span ?? "");
    }
    const posted = await fetch(base + unescape(path), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: form.toString(),
    });
    await posted.body?.cancel();
    assert.equal(posted.status, 303, `${path}: the answers are saved`);
    answers += questions.length;
  }
  return answers;
}
