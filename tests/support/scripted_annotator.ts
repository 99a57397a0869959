/**
 * An annotator that answers the answerability pages of a real `crux serve --annotate`
 * server like a person with a browser: it opens its queue, follows every item link,
 * reads the question and the report, and posts the form. What it answers is a rule of
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
 * Answers every item of `token`'s queue at `base` by `rule`; returns the number of
 * answers posted (each acknowledged with a redirect, as a browser form post is).
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
  for (const path of items) {
    const page = await fetch(base + unescape(path));
    assert.equal(page.status, 200, path);
    const text = await page.text();
    const question = /Question: <strong>([^<]*)<\/strong>/.exec(text);
    const report = /<textarea id="report-text"[^>]*>([^<]*)<\/textarea>/.exec(text);
    assert.ok(question && report, `${path}: a question and a report`);
    const answer = rule(unescape(question[1]), unescape(report[1]));
    const posted = await fetch(base + unescape(path), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams(answer.span ? answer : { label: answer.label }).toString(),
    });
    await posted.body?.cancel();
    assert.equal(posted.status, 303, `${path}: the answer is saved`);
  }
  return items.length;
}
