/**
 * Every built-in prompt names its source (paper and protocol step); the
 * instructions it keeps are checked against docs/prompt_deviations.md by
 * prompt_deviations_test.ts. Here: what the prompts must not say.
 */
import assert from "node:assert/strict";
import { BUILTIN_PROMPTS, loadTemplate } from "@lib/llm/mod.ts";
import { parseCoverageAnswer } from "@lib/subq/mod.ts";

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

Deno.test("every built-in prompt names its source paper and year", async () => {
  const all = await builtins();
  assert.ok(all.length >= 22, `found ${all.length} prompts`);
  for (const p of all) {
    const source = p.header.get("source") ?? "";
    assert.match(source, /\b(19|20)\d\d\b/, `${p.id}: "source:" must name the paper and year`);
    assert.equal(
      p.header.has("keep"),
      false,
      `${p.id}: instructions are listed in docs/prompt_deviations.md`,
    );
  }
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

Deno.test("the coverage prompt's None span reads as unanswered, with no span to locate", () => {
  assert.deepEqual(parseCoverageAnswer('{"label": "unanswered", "span": "None"}'), {
    ok: true,
    value: { answered: false, span: "" },
  });
  assert.deepEqual(parseCoverageAnswer('{"label": "answered", "span": "None"}'), {
    ok: true,
    value: { answered: false, span: "" },
  });
  assert.deepEqual(parseCoverageAnswer('{"label": "answered", "span": "in Lindau"}'), {
    ok: true,
    value: { answered: true, span: "in Lindau" },
  });
});
