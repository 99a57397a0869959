/**
 * docs/configs.md names every section and field of an experiment config: the fields are
 * read from the config reference generated from the code, so a field added to a config
 * type or a method section's parser fails this test until the page describes it.
 */
import assert from "node:assert/strict";
import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { referencePages } from "../support/reference_pages.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Fields the reference lists that a config does not hold (filled in by the reader). */
const NOT_WRITTEN: Record<string, readonly string[]> = {
  // The config file's own path and the method sections by key.
  "Top level (beside the fields below)": ["file", "methods"],
  // Expanded from `first` x `rerankers`.
  "`grid`": ["cells"],
};

/** (section, field) pairs of the generated config reference. */
function referenceFields(page: string): [string, string][] {
  const out: [string, string][] = [];
  let section = "";
  for (const line of page.split("\n")) {
    const heading = /^#{2,3} (.*)$/.exec(line);
    if (heading) {
      section = heading[1];
      continue;
    }
    const row = /^\| `([^`]+)`/.exec(line);
    const listed = /^Fields: (.*)$/.exec(line)?.[1].match(/`[^`]+`/g)?.map((f) => f.slice(1, -1));
    for (const f of row ? [row[1]] : listed ?? []) out.push([section, f]);
  }
  return out;
}

Deno.test("docs/configs.md names every section and every field of a config", async () => {
  const page = (await referencePages()).get("docs/reference/config.md")!;
  const doc = await Deno.readTextFile(join(ROOT, "docs", "configs.md"));
  const fields = referenceFields(page);
  // The reference lists the sections and their fields (a parse that found nothing cannot pass).
  assert.ok(fields.length > 100, `${fields.length} fields`);
  const methods = METHOD_REGISTRY.filter((m) => m.section).map((m) => m.key);
  for (const s of [...methods, "grid", "llm", "analysis"]) {
    assert.ok(fields.some(([section]) => section.includes(`\`${s}\``)), s);
    assert.ok(doc.includes(`**\`${s}\`.**`), `the page has a paragraph on ${s}`);
  }
  const missing = fields.filter(([section, f]) =>
    !NOT_WRITTEN[section]?.includes(f) && !doc.includes(`\`${f}\``)
  );
  assert.deepEqual(missing, [], "fields the page does not name");
});

Deno.test("the reference's fields are read from its tables and its method sections' lists", () => {
  const md = [
    "## `analysis`",
    "| field | type | meaning |",
    "| `tau` | `number` | x |",
    "### `keypoints` (Key points)",
    "Fields: `rounds`, `file`.",
  ].join("\n");
  assert.deepEqual(referenceFields(md), [
    ["`analysis`", "tau"],
    ["`keypoints` (Key points)", "rounds"],
    ["`keypoints` (Key points)", "file"],
  ]);
});
