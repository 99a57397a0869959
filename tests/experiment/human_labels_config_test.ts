/**
 * `analysis.human` is checked when the config is loaded, before any stage runs, with the
 * expected layout in the message.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadExperimentConfig } from "@lib/experiment/mod.ts";

async function configWith(human: string): Promise<{ dir: string; path: string }> {
  const dir = await Deno.makeTempDir({ prefix: "crux-human-" });
  await Deno.writeTextFile(join(dir, "labels.jsonl"), human);
  const path = join(dir, "c.json");
  await Deno.writeTextFile(
    path,
    JSON.stringify({ name: "h", workspace: "ws", analysis: { human: "labels.jsonl" } }),
  );
  return { dir, path };
}

Deno.test("a malformed analysis.human file is refused when the config loads", async () => {
  // 30 lines without a topic id: the message shows three problems, not thirty.
  const { dir, path } = await configWith('{"run":"bm25","coverage":0.5}\n'.repeat(30));
  try {
    const err = await loadExperimentConfig(path).then(() => undefined, (e: Error) => e);
    assert.ok(err instanceof TypeError, String(err));
    assert.match(err.message, /field "analysis\.human" names ".*labels\.jsonl"/);
    assert.match(err.message, /expected JSONL lines \{"topicId", "condition" \(or "run"\)/);
    assert.ok(err.message.split("\n").length <= 5, err.message);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a well-formed analysis.human file loads", async () => {
  const { dir, path } = await configWith('{"topicId":"t1","run":"bm25","coverage":0.5}\n');
  try {
    const config = await loadExperimentConfig(path);
    assert.equal(config.analysis?.human, join(dir, "labels.jsonl"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
