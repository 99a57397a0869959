// Shared fixtures of the LLM acceptance tests: pair files and a rating rule.
import { join } from "node:path";

/** A deterministic pair set: question i asks about item i, context i mentions it. */
export function makePairs(n: number): { id: string; question: string; context: string }[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    question: `What happened to item number ${i} in the ledger?`,
    context: `Item number ${i} was moved to shelf ${i % 17} on day ${i % 31}.`,
  }));
}

/** Writes pairs as JSONL into `dir` and returns the path. */
export async function writePairs(dir: string, n: number): Promise<string> {
  const path = join(dir, "pairs.jsonl");
  await Deno.writeTextFile(path, makePairs(n).map((p) => JSON.stringify(p)).join("\n") + "\n");
  return path;
}

/** The item number a rendered answerability prompt asks about. */
export function itemOf(prompt: string): number {
  const m = /item number (\d+) in the ledger/.exec(prompt);
  return m ? Number(m[1]) : -1;
}

/** The rating the scripted judge gives item i. */
export const ratingOf = (i: number): number => (i * 7) % 6;

/** Reads an output JSONL file. */
export async function readJsonl(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path);
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/** Chat rule (usable in a worker server): answers the scripted rating of the asked item. */
export function ratingRule(req: { messages: { content: string }[] }): { content: string } {
  return { content: String(ratingOf(itemOf(req.messages[req.messages.length - 1].content))) };
}
