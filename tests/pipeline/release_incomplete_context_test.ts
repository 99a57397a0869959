/**
 * A release-format experiment whose released run retrieves passages of other
 * collections (ids the corpus does not hold) at the top: the contexts built from
 * it are flagged per run and topic, the default keeps the shorter context, and
 * the main table's notes name the affected run.
 */
import assert from "node:assert/strict";
import { METHOD_REGISTRY } from "../../lib/methods/mod.ts";
import { join } from "node:path";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { loadExperimentConfig } from "@lib/experiment/mod.ts";
import { openWorkspace, readContextGaps } from "@lib/store/mod.ts";
import { writeReleaseFixture } from "../support/release_fixture.ts";

Deno.test({
  name:
    "release files with foreign passages in a run: flagged contexts, shorter context kept, main table notes",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-release-gap-" });
    try {
      const file = await writeReleaseFixture(dir, 20);
      const raw = JSON.parse(await Deno.readTextFile(file));
      // CRUX only: the other methods do not read contexts.
      for (const m of METHOD_REGISTRY) if (m.section) delete raw[m.key];
      raw.workspace = join(dir, "ws");
      await Deno.writeTextFile(file, JSON.stringify(raw));
      // Three topics' best-ranked document is a passage of another collection.
      const runFile = join(dir, "bm25.run");
      const lines = (await Deno.readTextFile(runFile)).trim().split("\n");
      const topics = [...new Set(lines.map((l) => l.split(/\s+/)[0]))].sort().slice(0, 3);
      const foreign = topics.map((t) => `${t} Q0 other-collection:${t}#0 0 9999 bm25`);
      await Deno.writeTextFile(runFile, [...foreign, ...lines].join("\n") + "\n");

      const config = await loadExperimentConfig(file);
      const notes: string[] = [];
      const r = await runCruxExperiment(config, { onEvent: (e) => notes.push(e.message) });
      const flagged = notes.find((m) => m.includes('Run "rag-bm25": 3 of'));
      assert.ok(flagged, notes.join("\n"));
      assert.match(flagged!, /the shorter context kept/);
      for (const t of topics) assert.match(flagged!, new RegExp(`${t} 1/\\d+`));
      assert.ok(!notes.some((m) => m.includes('Run "rag-dense"')), "the dense run is whole");

      const ws = await openWorkspace(config.workspace, { readOnly: true });
      let reports = 0;
      try {
        reports = (await ws.generations({ run: "rag-bm25" })).length;
        const gaps = (await readContextGaps(ws)).get("rag-bm25")!;
        assert.deepEqual(gaps.map((g) => g.topicId), topics);
        for (const g of gaps) {
          assert.deepEqual(g.missing, [`other-collection:${g.topicId}#0`]);
          assert.deepEqual(g.filled, []);
          const [gen] = await ws.generations({ run: "rag-bm25", topicId: g.topicId });
          assert.equal(gen.contextIds?.length ?? 0, g.k - 1, "the shorter context is kept");
        }
      } finally {
        ws.close();
      }
      const main = r.analyses!.analyses.find((a) => a.name === "main_table")!;
      const note = main.table!.notes!.find((n) => n.startsWith("incomplete report contexts"));
      assert.ok(note, main.table!.notes!.join("\n"));
      assert.match(
        note!,
        new RegExp(
          `rag-bm25 \\(from bm25\\): 3 of ${reports} topics, 3 passage\\(s\\) without text left out`,
        ),
      );
      assert.doesNotMatch(note!, /rag-dense/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
