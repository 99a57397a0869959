import assert from "node:assert/strict";
import { join } from "node:path";
import { poolCorpus } from "./pool_corpus.ts";
import { buildPassages } from "./build_passages.ts";
import { tinyWorkspace } from "./_tiny_workspace.ts";

Deno.test("poolCorpus writes all passages then distractors, skipping clashing ids", async () => {
  await using ws = await tinyWorkspace();
  await buildPassages(ws);
  const extra = join(ws.dir, "extra.jsonl");
  await Deno.writeTextFile(
    extra,
    '{"id":"news-1","text":"An unrelated story."}\n{"id":"tiny-1:0#0","contents":"clash"}\n',
  );
  const out = join(ws.dir, "corpus.jsonl");
  const notes: string[] = [];
  const r = await poolCorpus(ws, out, { distractors: extra, onNote: (m) => notes.push(m) });
  assert.deepEqual(r, { passages: 4, distractors: 1, duplicates: 1 });
  const lines = (await Deno.readTextFile(out)).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.id), [
    "tiny-1:0#0",
    "tiny-1:1#1",
    "tiny-2:0#0",
    "tiny-2:1#1",
    "news-1",
  ]);
  assert.equal(lines[4].contents, "An unrelated story.");
  assert.match(notes[0], /1 distractor documents of .*extra.jsonl reuse an id/);
  const only = await poolCorpus(ws, out, { topics: ["tiny-2"] });
  assert.deepEqual(only, { passages: 2, distractors: 0, duplicates: 0 });
});
