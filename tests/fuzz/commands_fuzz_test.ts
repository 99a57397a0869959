/**
 * Fuzzing the commands that take files: with one input mutated at random, a
 * command succeeds or exits non-zero with a message naming that file, without a
 * stack trace and within a time bound. Seeded, so a failure reproduces.
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import fc from "fast-check";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { mutate, mutations } from "./_mutate.ts";

const enc = new TextEncoder();
const jsonl = (...xs: unknown[]) => xs.map((x) => JSON.stringify(x)).join("\n") + "\n";

const VALID: Record<string, string> = {
  "run.txt": "t1 Q0 t1:0#0 1 2.5 r\nt1 Q0 t1:0#1 2 1.5 r\nt1 Q0 t1:0#2 3 0.5 r\n",
  "qrels.txt": "t1 0 t1:0#0 3\nt1 0 t1:0#1 1\nt1 0 t1:0#2 0\n",
  "judgments.jsonl": jsonl(
    { id: "t1", docid: "t1:0#0", rating: [5, 0] },
    { id: "t1", docid: "t1:0#1", rating: [2, 4] },
    { id: "t1", docid: "t1:0#2", rating: [0, 0] },
  ),
  "corpus.jsonl": jsonl(
    { id: "t1:0#0", contents: "A storm hit the coast on Monday." },
    { id: "t1:0#1", contents: "Crews rescued twelve fishermen." },
    { id: "t1:0#2", contents: "The town has a long history." },
  ),
  "topics.jsonl": jsonl({ id: "t1", request: "storm rescue coast" }),
  "pairs.jsonl": jsonl(
    { id: "p1", question: "Where did the storm hit?", context: "A storm hit the coast." },
    { id: "p2", question: "Who was rescued?", context: "Crews rescued fishermen." },
  ),
};

/** Commands and the input each one gets mutated. */
const CASES: { name: string; file: string; args: (p: (n: string) => string) => string[] }[] = [
  {
    name: "eval (run)",
    file: "run.txt",
    args: (p) => ["eval", "--run", p("run.txt"), "--qrels", p("qrels.txt"), "-m", "P@2 nDCG@2 RR"],
  },
  {
    name: "eval (qrels)",
    file: "qrels.txt",
    args: (p) => ["eval", "--run", p("run.txt"), "--qrels", p("qrels.txt"), "-m", "P@2 AP"],
  },
  {
    name: "eval (judgments)",
    file: "judgments.jsonl",
    args: (p) => [
      "eval",
      "--run",
      p("run.txt"),
      "--judgments",
      p("judgments.jsonl"),
      "--corpus",
      p("corpus.jsonl"),
      "--tokenizer",
      "whitespace",
      "-m",
      "Cov@2 alpha_nDCG@2 Den@2",
    ],
  },
  {
    name: "eval (corpus)",
    file: "corpus.jsonl",
    args: (p) => [
      "eval",
      "--run",
      p("run.txt"),
      "--judgments",
      p("judgments.jsonl"),
      "--corpus",
      p("corpus.jsonl"),
      "--tokenizer",
      "whitespace",
      "-m",
      "Den@2",
    ],
  },
  {
    name: "judge answerability",
    file: "pairs.jsonl",
    args: (
      p,
    ) => [
      "judge",
      "answerability",
      "--input",
      p("pairs.jsonl"),
      "--out",
      p("out.jsonl"),
      "--backend",
      "lexical",
    ],
  },
  {
    name: "index",
    file: "corpus.jsonl",
    args: (p) => ["index", "--passages", p("corpus.jsonl"), "--out", p("idx")],
  },
  {
    name: "construct select",
    file: "judgments.jsonl",
    args: (p) => [
      "construct",
      "select",
      "--judgments",
      p("judgments.jsonl"),
      "--out-qrels",
      p("q.txt"),
      "--out-div-qrels",
      p("d.txt"),
    ],
  },
  {
    name: "import qrels",
    file: "qrels.txt",
    args: (p) => ["import", "qrels", "--workspace", p("ws"), "--file", p("qrels.txt")],
  },
];

for (const c of CASES) {
  Deno.test({
    name: `fuzz: crux ${c.name} with a mutated ${c.file} succeeds or names the file`,
    sanitizeResources: false,
    fn: async () => {
      const dir = await Deno.makeTempDir();
      const p = (n: string) => join(dir, n);
      for (const [name, text] of Object.entries(VALID)) await Deno.writeTextFile(p(name), text);
      const valid = enc.encode(VALID[c.file]);
      const first = memoryIo();
      assert.equal(await main(c.args(p), first, COMMANDS), 0, `valid input: ${first.stderr()}`);
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(mutations, async (list) => {
          await Deno.writeFile(p(c.file), mutate(valid, list));
          const io = memoryIo();
          const t0 = performance.now();
          const code = await main(c.args(p), io, COMMANDS);
          const context = `${c.name} after ${JSON.stringify(list)}: exit ${code}\n${io.stderr()}`;
          assert.ok(performance.now() - t0 < 10_000, `${context}: took too long`);
          assert.ok(code === 0 || code === 1, context);
          assert.doesNotMatch(io.stderr(), /\n\s+at |Uncaught|TypeError/, context);
          if (code !== 0) {
            refused++;
            // The message names the mutated file, or the input it no longer agrees with
            // (a judged passage missing from the corpus names the corpus).
            const named = Object.keys(VALID).filter((f) => io.stderr().includes(basename(f)));
            assert.ok(named.length > 0, `${context}: no input file is named`);
          }
        }),
        { seed: 20261124, numRuns: 40 },
      );
      await Deno.writeTextFile(p(c.file), VALID[c.file]);
      assert.ok(refused > 5, `${c.name}: only ${refused} of 40 mutated inputs refused`);
      await Deno.remove(dir, { recursive: true });
    },
  });
}
