import assert from "node:assert/strict";
import { join } from "node:path";
import { readJsonl } from "./_fixtures.ts";

// The real entry point; `crux judge`, `crux llm` and `crux batch` are registered there.
const CLI = new URL("../../lib/cli/main.ts", import.meta.url).pathname;

Deno.test("judge answerability --backend lexical runs with network access denied", async () => {
  const dir = await Deno.makeTempDir();
  const input = join(dir, "pairs.jsonl");
  const pairs = [
    {
      id: "full",
      question: "Who won the chess final in Oslo?",
      context: "Anna won the chess final in Oslo on Sunday.",
    },
    {
      id: "none",
      question: "Who won the chess final in Oslo?",
      context: "Rain is expected across the region tomorrow.",
    },
    {
      id: "part",
      question: "Who won the chess final in Oslo?",
      context: "The chess final drew a large crowd.",
    },
  ];
  await Deno.writeTextFile(input, pairs.map((p) => JSON.stringify(p)).join("\n") + "\n");
  const out = join(dir, "out.jsonl");
  const p = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-ffi",
      "--allow-sys",
      "--deny-net",
      CLI,
      "judge",
      "answerability",
      "--backend",
      "lexical",
      "--input",
      input,
      "--out",
      out,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  assert.equal(p.code, 0, dec.decode(p.stderr));
  const rows = await readJsonl(out);
  // Question terms: who, won, chess, final, oslo. Over the 3 contexts df = 0, 1, 2, 2, 1,
  // so idf = ln(8) = 2.0794, ln(8/3) = 0.9808, ln(1.6) = 0.4700; total 4.9810.
  // full: won+chess+final+oslo = 2.9016 -> 0.5825 (>= 0.45: 3); part: chess+final = 0.9400
  // -> 0.1887 (>= 0.15: 1); none: 0.
  assert.deepEqual(rows, [
    { id: "full", rating: 3, status: "ok", raw: "0.5825" },
    { id: "none", rating: 0, status: "ok", raw: "0.0000" },
    { id: "part", rating: 1, status: "ok", raw: "0.1887" },
  ]);
  assert.match(dec.decode(p.stdout), /Judged 3 pairs with lexical: 3 ok, 0 unparsed, 0 failed/);
  await Deno.remove(dir, { recursive: true });
});
