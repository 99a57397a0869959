// A 2 GiB file of one line, given to the commands that read JSONL, a JSON
// document or a qrels file, is refused within 2 s, naming the file and the line
// or the size. The file is sparse: it takes no disk.
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { evalCommand } from "@lib/cli/commands/eval.ts";
import { importCommand } from "@lib/cli/commands/import.ts";
import { nuggetsCommand } from "@lib/cli/commands/nuggets.ts";

async function crux(args: string[]) {
  const io = memoryIo();
  const started = performance.now();
  const code = await main(args, io, [evalCommand, importCommand, nuggetsCommand]);
  return { code, err: io.stderr(), seconds: (performance.now() - started) / 1000 };
}

Deno.test("a 2 GiB one-line file is refused within 2 s by eval, import crux and nuggets score, naming it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const big = join(dir, "big.jsonl");
    await Deno.writeFile(big, new Uint8Array());
    await Deno.truncate(big, 2 ** 31);
    const qrels = join(dir, "q.qrels");
    const run = join(dir, "r.run");
    await Deno.writeTextFile(qrels, "q1 0 d1 1\n");
    await Deno.writeTextFile(run, "q1 Q0 d1 1 1.0 r\n");
    const line = new RegExp(`${big.replace(/[.]/g, "\\.")}:1: line longer than 67108864 bytes`);
    const size = new RegExp(`${big.replace(/[.]/g, "\\.")}: the file is 2147483648 bytes`);
    const cases: [string[], RegExp][] = [
      [["eval", "-m", "Cov@10", "--run", run, "--qrels", qrels, "--judgments", big], line],
      [["eval", "-m", "P@1", "--run", run, "--qrels", big], size],
      [["eval", "-m", "P@1", "--run", big, "--qrels", qrels], line],
      [["import", "crux", "--workspace", join(dir, "ws"), "--corpus", big], line],
      [["nuggets", "score", "--assignments", big], line],
    ];
    for (const [args, message] of cases) {
      const r = await crux(args);
      assert.equal(r.code, 1, `${args.join(" ")}: ${r.err}`);
      assert.match(r.err, message, args.join(" "));
      assert.ok(r.seconds < 2, `${args.join(" ")}: ${r.seconds.toFixed(2)} s`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
