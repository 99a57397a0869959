/**
 * The notebooks are formatted as `deno fmt` formats them (code cells included).
 * They are checked here, through `deno fmt -` on each file's text, rather than
 * by `deno fmt --check`, which reports every notebook as unformatted unless its
 * own cache says otherwise (so it fails on every fresh clone); `deno.json`
 * excludes them from `deno fmt` for that reason only.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

const root = new URL("../../", import.meta.url).pathname;
const dir = join(root, "notebooks");
const notebooks = [...Deno.readDirSync(dir)]
  .filter((e) => e.isFile && e.name.endsWith(".ipynb"))
  .map((e) => e.name)
  .sort();

Deno.test("every notebook is formatted as deno fmt formats it", async () => {
  assert.ok(notebooks.length >= 9, notebooks.join());
  const unformatted: string[] = [];
  for (const name of notebooks) {
    const text = await Deno.readTextFile(join(dir, name));
    const child = new Deno.Command(Deno.execPath(), {
      args: ["fmt", "--config", join(root, "deno.json"), "--ext=ipynb", "-"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
    const out = await child.output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    if (new TextDecoder().decode(out.stdout) !== text) unformatted.push(name);
  }
  assert.deepEqual(
    unformatted,
    [],
    "format each listed notebook with `deno fmt --ext=ipynb - < notebooks/NAME > formatted.ipynb` " +
      "and move formatted.ipynb over it (deno.json keeps notebooks out of `deno fmt`)",
  );
});
