/**
 * `analysis.humanStudy` names the annotators' label files (relative to the config
 * file, like its other paths) and the labelled run; a wrong field or a file that is
 * not an annotator's label file is refused when the config loads, naming the field.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadExperimentConfig } from "@lib/experiment/mod.ts";

async function configWith(humanStudy: unknown, labels: string[]) {
  const dir = await Deno.makeTempDir({ prefix: "crux-study-" });
  for (const [i, text] of labels.entries()) {
    await Deno.writeTextFile(join(dir, `a${i + 1}.jsonl`), text);
  }
  const path = join(dir, "c.json");
  await Deno.writeTextFile(
    path,
    JSON.stringify({ name: "h", workspace: "ws", analysis: { humanStudy } }),
  );
  return { dir, path };
}

const LABEL = '{"id":"t1","answerability":[1,0,1]}\n';

Deno.test("analysis.humanStudy: files resolve against the config's folder", async () => {
  const { dir, path } = await configWith(
    { files: ["a1.jsonl", "a2.jsonl"], run: "rag-bm25" },
    [LABEL, LABEL],
  );
  try {
    const config = await loadExperimentConfig(path);
    assert.deepEqual(config.analysis?.humanStudy, {
      files: [join(dir, "a1.jsonl"), join(dir, "a2.jsonl")],
      run: "rag-bm25",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("analysis.humanStudy: wrong fields and files are refused, naming the field", async () => {
  const cases: [unknown, string[], RegExp][] = [
    [{ files: ["a1.jsonl"] }, [LABEL], /field "analysis\.humanStudy\.files" must be a list of two/],
    [
      { files: ["a1.jsonl", 3] },
      [LABEL],
      /field "analysis\.humanStudy\.files\[1\]" must be a file/,
    ],
    [
      { files: ["a1.jsonl", "a2.jsonl"], names: [] },
      [LABEL, LABEL],
      /humanStudy\.names" is unknown/,
    ],
    [{ files: ["a1.jsonl", "a2.jsonl"], run: 1 }, [LABEL, LABEL], /humanStudy\.run" must be/],
    [
      { files: ["a1.jsonl", "a2.jsonl"] },
      [LABEL, '{"id":"t1"}\n'],
      /field "analysis\.humanStudy\.files\[1\]" names ".*a2\.jsonl", which is not an annotator's/,
    ],
  ];
  for (const [study, labels, want] of cases) {
    const { dir, path } = await configWith(study, labels);
    try {
      await assert.rejects(() => loadExperimentConfig(path), want);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});
