import assert from "node:assert/strict";
import { parseFlags } from "./_eval_flags.ts";
import { UsageError } from "../command.ts";

Deno.test("parseFlags: long, inline, short and repeated options", () => {
  assert.deepEqual(
    parseFlags([
      "--run",
      "a.run",
      "--run=b.run=B",
      "-m",
      "P@10",
      "-mAP",
      "--measures=RR",
      "--qrels",
      "q.txt",
      "--per-query",
      "--tau",
      "4",
    ]),
    {
      run: ["a.run", "b.run=B"],
      measures: ["P@10", "AP", "RR"],
      qrels: "q.txt",
      "per-query": true,
      tau: "4",
    },
  );
  assert.deepEqual(parseFlags(["--run", "-", "--"]), { run: ["-"] });
});

Deno.test("parseFlags: unknown options, missing values and positionals are usage errors", () => {
  const cases: [string[], string][] = [
    [["--bogus"], "Unknown option '--bogus'"],
    [["-x", "1"], "Unknown option '-x'"],
    [["--qrels"], "Option '--qrels <value>' argument missing"],
    [["--qrels", "--run", "a"], "Option '--qrels <value>' argument missing"],
    [["--complete=yes"], "Option '--complete' does not take an argument"],
    [["a.run"], "Unexpected argument 'a.run'. This command does not take positional arguments"],
    [
      ["--", "a.run"],
      "Unexpected argument 'a.run'. This command does not take positional arguments",
    ],
  ];
  for (const [args, message] of cases) {
    assert.throws(() => parseFlags(args), (e) => e instanceof UsageError && e.message === message);
  }
});
