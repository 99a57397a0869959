// Chat rule of the TREC-sized benchmark (loaded by the worker test server): a
// parseable answer for each judging stage's prompt, told apart by the prompt's
// wording. Labels vary with the prompt's length, so every label occurs.
import { nuggetLabelRule } from "../nuggets/_rules.ts";

/** Answers nugget assignment, key point entailment, sub-question coverage and pairwise prompts. */
export function trecJudgeRule(req: { messages: { content: string }[] }): { content: string } {
  const all = req.messages.map((m) => m.content).join("\n");
  const odd = all.length % 2 === 1;
  if (all.includes("Nuggets (JSON):")) return nuggetLabelRule(req);
  if (all.includes("You compare two answers")) {
    return { content: JSON.stringify({ better: odd ? "1" : "2" }) };
  }
  if (all.includes("You check whether a text answers a question")) {
    return { content: JSON.stringify({ label: odd ? "answered" : "unanswered", span: "" }) };
  }
  if (all.includes("key point")) {
    return { content: JSON.stringify({ label: odd ? "yes" : "no", reason: "r", snippet: "" }) };
  }
  throw new Error(
    `trecJudgeRule: no answer for prompt starting ${JSON.stringify(all.slice(0, 80))}`,
  );
}

/** The server's request key: empty, so that its log keeps no prompt text (the benchmark counts calls, not keys). */
export function trecKey(): string {
  return "";
}
