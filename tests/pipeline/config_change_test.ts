/**
 * A config change replaces what it invalidates: on a release-format
 * experiment with all four methods, changing the sub-question source, the
 * nugget and key point sources (files exported from the first run) and
 * parameters of every method re-runs without error, leaves each method's
 * headline under exactly the new (judge, source), and `crux compare --config`
 * reads the sources the config's `compare` section names. A notebook's named
 * overlay runs in its own workspace and leaves the config's rows alone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { openWorkspace } from "../../lib/store/mod.ts";
import { formatKeyPoints, formatNuggets } from "../../lib/formats/mod.ts";
import { readStoredKeyPoints } from "../../lib/keypoints/mod.ts";
import { methodView } from "../../lib/experiment/mod.ts";
import { loadExperimentConfig } from "../../lib/experiment/mod.ts";
import { METHOD_REGISTRY } from "../../lib/methods/mod.ts";
import { experimentHeadlines } from "../../lib/pipeline/mod.ts";

const root = new URL("../../", import.meta.url).pathname;
const fixtures = join(root, "tests", "golden", "crux", "fixtures");

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, out: io.stdout(), err: io.stderr() };
}

/**
 * (judge, source) pairs of each method's judged topic rows, judge samples left out
 * (and the judge-independent counts of extraction and creation, judge '').
 */
async function provenance(workspace: string): Promise<Record<string, string[]>> {
  const ws = await openWorkspace(workspace, { readOnly: true });
  try {
    const rows = await ws.query<{ method: string; pairs: string[] }>(
      `SELECT method, list(DISTINCT judge || ' | ' || source ORDER BY judge || ' | ' || source)
         AS pairs FROM measures WHERE method IN ('nuggets', 'keypoints', 'subq')
         AND topic_id <> 'all' AND judge <> '' AND NOT regexp_matches(judge, '#s[0-9]+$')
       GROUP BY method ORDER BY method`,
    );
    return Object.fromEntries(rows.map((r) => [r.method, [...r.pairs]]));
  } finally {
    ws.close();
  }
}

/** Stage instances with their fingerprint, time and parameters. */
async function stageRows(workspace: string) {
  const ws = await openWorkspace(workspace, { readOnly: true });
  try {
    return await ws.query<{ id: string; fingerprint: string; at: string; params: string }>(
      `SELECT key AS id, fingerprint, recorded_at::VARCHAR AS at,
         (payload->'params')::VARCHAR AS params FROM memo WHERE kind = 'stage' ORDER BY id`,
    );
  } finally {
    ws.close();
  }
}

Deno.test({
  name:
    "changing each method's source and parameters re-runs without error or stale rows; compare follows the config",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const workspace = join(dir, "ws");
    const configFile = join(dir, "exp.json");
    const base = {
      name: "change",
      workspace: "ws",
      dataset: {
        source: "crux",
        corpus: join(fixtures, "corpus.jsonl"),
        topics: join(fixtures, "topics.jsonl"),
        judgments: join(fixtures, "judgments.jsonl"),
        subquestions: join(fixtures, "subquestions.json"),
      },
      backend: "offline",
      retrieve: [{ name: "bm25", k: 50 }],
      nuggets: {} as Record<string, unknown>,
      keypoints: {} as Record<string, unknown>,
      subq: { n: 8, variants: [], source: "decompose" } as Record<string, unknown>,
      compare: {} as Record<string, unknown>,
    };
    const run = async (config: typeof base, label: string) => {
      await Deno.writeTextFile(configFile, JSON.stringify(config));
      const r = await crux(["run", "--config", configFile, "--until", "measure"]);
      assert.equal(r.code, 0, `${label}: ${r.err}`);
      const c = await crux(["compare", "--config", configFile, "--format", "json"]);
      assert.equal(c.code, 0, `${label}: compare: ${c.err}`);
      return { run: r, compare: JSON.parse(c.out) };
    };
    try {
      const first = await run(base, "first run");
      const before = await provenance(workspace);
      // The offline nugget creator finds no nugget in the fixture's made-up words.
      assert.deepEqual(Object.keys(before), ["keypoints", "subq"]);
      assert.equal(before.subq.length, 1);
      assert.match(before.subq[0], /\| decompose$/);
      // The config's methods but nuggets, which found nothing.
      const named = experimentHeadlines(METHOD_REGISTRY, base).map((h) => h.method);
      const compared = named.filter((m) => m !== "nuggets");
      assert.deepEqual(first.compare.methods.map((m: { method: string }) => m.method), compared);
      assert.deepEqual(first.compare.missing.map((m: { method: string }) => m.method), [
        "nuggets",
      ]);

      // A named overlay (three key point rounds) runs in its own workspace: the config's stages
      // and rows stay as they are.
      const stagesBefore = await stageRows(workspace);
      const view = await methodView(await loadExperimentConfig(configFile), "keypoints", {
        overlay: { name: "rounds3", settings: { rounds: 3 } },
      });
      assert.equal(view.workspace, `${workspace}.rounds3`);
      assert.ok(view.stages.ran.includes("judge:keypoints/extract"), view.stages.ran.join(", "));
      // No stage of another method (CRUX's have no method in their ids).
      const others = METHOD_REGISTRY.filter((m) => m.section && m.key !== "keypoints");
      assert.ok(!view.stages.ran.some((id) => others.some((m) => id.includes(m.key))));
      assert.deepEqual(await stageRows(workspace), stagesBefore);
      assert.deepEqual(await provenance(workspace), before);
      const overlayStages = await stageRows(view.workspace);
      const extract = overlayStages.find((r) => r.id === "judge:keypoints/extract")!;
      assert.equal(JSON.parse(extract.params).rounds, 3);

      // The source of the sub-questions: the CRUX ones instead of a decomposition.
      base.subq = { ...base.subq, source: "crux" };
      const second = await run(base, "subq.source crux");
      const afterSubq = await provenance(workspace);
      assert.equal(afterSubq.subq.length, 1, afterSubq.subq.join("; "));
      assert.match(afterSubq.subq[0], /\| crux$/);
      assert.deepEqual(afterSubq.keypoints, before.keypoints);
      const subq = second.compare.methods.find((m: { method: string }) => m.method === "subq");
      assert.equal(subq.source, "crux");

      // Nugget and key point sources: files. The nuggets are the first words of two passages
      // of each topic; the key points are those of the first run.
      const ws = await openWorkspace(workspace, { readOnly: true });
      const { keypoints } = await readStoredKeyPoints(ws, { level: "merged" });
      const topics = await ws.topics();
      const passages = await ws.query<{ id: string; text: string }>(
        "SELECT passage_id AS id, text FROM passages ORDER BY passage_id",
      );
      ws.close();
      const nuggets = topics.map((t) => ({
        qid: t.topicId,
        query: t.request ?? t.title ?? t.topicId,
        nuggets: passages.filter((p) => p.id.startsWith(`${t.topicId}:`)).slice(0, 2).map((
          p,
          i,
        ) => ({
          text: p.text.split(/\s+/).slice(0, 8).join(" "),
          importance: (i === 0 ? "vital" : "okay") as "vital" | "okay",
        })),
      }));
      await Deno.writeTextFile(join(dir, "nuggets.jsonl"), formatNuggets(nuggets));
      await Deno.writeTextFile(join(dir, "keypoints.jsonl"), formatKeyPoints(keypoints));
      base.nuggets = { nuggets: "nuggets.jsonl" };
      base.keypoints = { file: "keypoints.jsonl" };
      await run(base, "nugget and key point files");
      const afterFiles = await provenance(workspace);
      assert.equal(afterFiles.nuggets.length, 1, afterFiles.nuggets.join("; "));
      assert.match(afterFiles.nuggets[0], /\| file:nuggets\.jsonl$/);
      assert.equal(afterFiles.keypoints.length, 1, afterFiles.keypoints.join("; "));
      assert.notDeepEqual(afterFiles.keypoints, before.keypoints);
      assert.deepEqual(afterFiles.subq, afterSubq.subq);

      // A parameter of every method, and the comparison's own settings.
      base.nuggets = { ...base.nuggets, support: 0.6 };
      base.keypoints = { ...base.keypoints, entailThreshold: 0.6 };
      base.subq = { ...base.subq, threshold: 0.6 };
      base.compare = { methods: compared, sources: { subq: "crux" } };
      const last = await run(base, "parameters");
      assert.deepEqual(await provenance(workspace), afterFiles);
      assert.match(last.run.err, /measure:subq/);
      assert.deepEqual(last.compare.methods.map((m: { method: string }) => m.method), compared);
      // No (run, topic, measure) of a method is stored twice.
      const check = await openWorkspace(workspace, { readOnly: true });
      const dup = await check.query<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM (SELECT method, run, topic_id, measure, count(*) AS c
           FROM measures WHERE method IN ('nuggets', 'keypoints', 'subq')
           AND NOT regexp_matches(judge, '#s[0-9]+$') GROUP BY ALL HAVING c > 1)`,
      );
      check.close();
      assert.equal(dup[0].n, 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
