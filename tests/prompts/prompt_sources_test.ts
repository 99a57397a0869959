/**
 * Every built-in prompt names its source (paper and protocol step) and lists,
 * in its `keep:` header field (phrases separated by ` | `), the instructions
 * it must keep; each of them must be in the messages.
 */
import assert from "node:assert/strict";
import { BUILTIN_PROMPTS, loadTemplate } from "@lib/llm/mod.ts";

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

async function builtins(): Promise<{ id: string; version: number; header: Map<string, string> }[]> {
  const out = [];
  for await (const e of Deno.readDir(BUILTIN_PROMPTS)) {
    const m = /^(.+)\.v(\d+)\.prompt$/.exec(e.name);
    if (!m) continue;
    const text = await Deno.readTextFile(`${BUILTIN_PROMPTS}/${e.name}`);
    const lines = text.split("\n");
    const end = lines.indexOf("---", 1);
    const header = new Map(
      lines.slice(1, end).map((l) => /^([a-z_]+):\s*(.*)$/.exec(l)!).map((x) => [x[1], x[2]]),
    );
    out.push({ id: m[1], version: Number(m[2]), header });
  }
  return out.sort((a, b) => a.id < b.id ? -1 : 1);
}

Deno.test("every built-in prompt names its source and keeps each phrase it lists", async () => {
  const all = await builtins();
  assert.ok(all.length >= 22, `found ${all.length} prompts`);
  for (const p of all) {
    const source = p.header.get("source") ?? "";
    assert.match(source, /\b(19|20)\d\d\b/, `${p.id}: "source:" must name the paper and year`);
    const keep = (p.header.get("keep") ?? "").split(" | ").map(squash).filter(Boolean);
    assert.ok(keep.length > 0, `${p.id}: "keep:" lists no phrase`);
    const t = await loadTemplate(p.id, { version: p.version });
    const body = squash(t.messages.map((m) => m.content).join("\n"));
    for (const phrase of keep) {
      assert.ok(body.includes(phrase), `${p.id}@${p.version}: lost the phrase "${phrase}"`);
    }
  }
});

Deno.test("the papers' instructions are among the kept phrases of the method prompts", async () => {
  const keep = new Map((await builtins()).map((p) => [p.id, p.header.get("keep") ?? ""]));
  const has = (id: string, ...phrases: string[]) => {
    for (const p of phrases) assert.ok(keep.get(id)!.includes(p), `${id}: keep lacks "${p}"`);
  };
  // AutoNuggetizer creation: only the initial list and the context, prefer the more interesting, not questions.
  has(
    "nugget_create",
    "use only the starting list and the passages",
    "prefer the more interesting",
    "not questions",
  );
  // Long2RAG: one-shot example, further rounds for what was overlooked; "no" = does not entail.
  has("keypoint_extract", "Example question:", "overlooked");
  has("keypoint_entail", "does not entail");
  has("keypoint_entail_contradiction", "does not entail", '"contradicts"');
  // Xie et al.: neutral decomposition; typing with three bullets per type.
  has("subq_decompose", "relevant to answer the complex question fully");
  has("subq_type", "Core sub-question", "Background sub-question", "Follow-up sub-question");
  // CRUX: the rating scale and the request's length.
  has("answerability", "single digit");
  has("report_request", "in about 50 words");
});

Deno.test("the decomposition and the pairwise judge carry no hint of the types or of the hypothesis", async () => {
  const body = async (id: string) =>
    (await loadTemplate(id)).messages.map((m) => m.content).join("\n").toLowerCase();
  const decompose = await body("subq_decompose");
  for (const word of ["core", "central", "background", "follow", "next"]) {
    assert.ok(!decompose.includes(word), `subq_decompose mentions "${word}"`);
  }
  const pairwise = await body("subq_pairwise");
  for (const word of ["core", "central", "background", "context", "did not ask", "follow"]) {
    assert.ok(!pairwise.includes(word), `subq_pairwise mentions "${word}"`);
  }
  // Long2RAG's "no" is "does not entail", never a contradiction, in the default label set.
  const entail = await body("keypoint_entail");
  assert.ok(!entail.includes("contradict"), "keypoint_entail mentions contradiction");
});

Deno.test("the end-to-end composition gets its budget in the unit its prompt states (words)", async () => {
  const t = await loadTemplate("subq_compose");
  assert.match(t.messages.at(-1)!.content, /at most \{\{budget\}\} words/);
});
