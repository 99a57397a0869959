/**
 * A changed judge replaces what it invalidates: an online experiment with all
 * methods against the loopback server, run with judge model `judge-a`, then
 * with `judge-b` in the config. The second run exits 0, re-runs every method's
 * judging stages, and every `measures` row of each method carries the new
 * judge only; report ratings are the new judge's only, passage ratings are kept
 * under both judges and read through the selection's judge (the new one);
 * `crux compare --config` works afterwards.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { defaultReportJudge, openWorkspace, passageJudge } from "../../lib/store/mod.ts";
import { type ServerChatRequest, startOpenAiServer } from "../support/openai_server.ts";
import { fakeReply, promptKind } from "../support/fake_model.ts";
import { tinyWorkspaceDir } from "./_tiny.ts";
import { METHOD_REGISTRY } from "../../lib/methods/mod.ts";
import { experimentHeadlines } from "../../lib/pipeline/mod.ts";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, out: io.stdout(), err: io.stderr() };
}

const sentences = (text: string) =>
  text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);
const between = (s: string, a: string, b: string) => {
  const i = s.lastIndexOf(a);
  if (i < 0) return "";
  const j = s.indexOf(b, i + a.length);
  return s.slice(i + a.length, j < 0 ? undefined : j);
};

/**
 * Plausible answers for every prompt the methods send: the CRUX prompts via the
 * shared fake model, the nugget, key point and sub-question prompts by their
 * wording. The judges differ in one place: `judge-a` finds the first (vital)
 * nugget of every topic unsupported by every answer, `judge-b` finds every nugget
 * supported, so strict vital recall is 0 under the first and 1 under the second.
 */
function reply(req: ServerChatRequest): string {
  const u = req.messages.at(-1)?.content ?? "";
  if (promptKind(req) !== "unknown") return fakeReply(req);
  if (u.includes("New passages:")) {
    const list = JSON.parse(
      between(u, "Current nugget list (JSON):\n", "\n\nNew passages:") || "[]",
    ) as string[];
    const added = [...u.matchAll(/^\[\d+\] (\S+ \S+ \S+ \S+)/gm)].map((m) => m[1]);
    return JSON.stringify([...new Set([...list, ...added])]);
  }
  if (u.includes("Nuggets (JSON):")) {
    const nuggets = JSON.parse(between(u, "Nuggets (JSON):\n", "\n\nFor each")) as string[];
    return JSON.stringify(
      nuggets.map((_, i) =>
        u.includes("\nText:\n")
          ? (i % 2 || req.model === "judge-b" ? "support" : "not_support")
          : i
          ? "okay"
          : "vital"
      ),
    );
  }
  if (u.includes("Points already extracted")) {
    if (!u.includes("(none yet)")) return "[]";
    const first = sentences(between(u, "Document:\n", "\n\nPoints already"))[0] ?? "";
    return first ? JSON.stringify([{ point: first, spans: [first] }]) : "[]";
  }
  if (u.includes("Numbered key points from several documents")) {
    const n = [...u.matchAll(/^\[?(\d+)[\].]/gm)].map((m) => Number(m[1]));
    return JSON.stringify(n.map((k) => ({ point: `point ${k}`, sources: [k] })));
  }
  if (u.includes("Key point:") || u.includes("Statement:")) {
    return JSON.stringify({ label: "yes", reason: "stated", snippet: "" });
  }
  if (u.includes("Answer the question using as many")) {
    return sentences(between(u, "Documents (separated by lines of =====):\n", "\n\nQuestion:"))
      .slice(0, 2).join(" ") || "Nothing is known.";
  }
  if (u.startsWith("Complex question:") || u.includes("Complex question:")) {
    return '["What happened?", "Who was involved?", "What comes next?"]';
  }
  if (u.includes("Which type is this sub-question?")) return "core";
  if (u.includes("Does the text answer")) {
    const words = between(u, "Text:\n", "\n\nDoes the text").trim().split(/\s+/);
    return JSON.stringify({
      label: words.length > 5 ? "answered" : "unanswered",
      span: words.slice(2, 5).join(" "),
    });
  }
  if (u.includes("Answer 1:")) return '{"better": "1"}';
  return "ok";
}

/** The method sections of the test's config. */
const SECTIONS = {
  nuggets: {},
  keypoints: {},
  subq: { n: 3, variants: [] },
  compare: {},
};

async function writeConfig(file: string, workspace: string, url: string, judge: string) {
  await Deno.writeTextFile(
    file,
    JSON.stringify({
      name: "judges",
      workspace,
      backend: "openai",
      llm: {
        baseUrl: url,
        maxRetries: 0,
        concurrency: 4,
        roles: { generator: { model: "gen-model" }, judge: { model: judge } },
      },
      construct: { questions: 4 },
      measures: ["Cov@oracle", "Den@oracle"],
      ...SECTIONS,
    }),
  );
}

type Row = { method: string; source: string; judge: string; n: number };

/** Rows of `measures` by method, source and judge (judge-independent counts, judge '', left out). */
async function judges(workspace: string): Promise<Row[]> {
  const ws = await openWorkspace(workspace, { readOnly: true });
  try {
    return await ws.query<Row>(
      `SELECT method, source, judge, count(*)::INTEGER AS n FROM measures
         WHERE judge <> '' GROUP BY ALL ORDER BY ALL`,
    );
  } finally {
    ws.close();
  }
}

/** Values of a method's measure over all topics, by run, under a judge. */
async function means(workspace: string, method: string, measure: string, judge: string) {
  const ws = await openWorkspace(workspace, { readOnly: true });
  try {
    const rows = await ws.query<{ run: string; value: number }>(
      `SELECT run, value FROM measures WHERE method = ? AND measure = ? AND judge = ?
         AND topic_id = 'all' ORDER BY run`,
      [method, measure, judge],
    );
    return Object.fromEntries(rows.map((r) => [r.run, r.value]));
  } finally {
    ws.close();
  }
}

const RUNS = ["direct", "oracle-context", "oracle-result", "rag-bm25"];

/** Stages of each method that the judge's answers feed. */
const JUDGED_STAGES = [
  "construct",
  "select",
  "measure:contexts",
  ...RUNS.map((r) => `judge:${r}`),
  "judge:nuggets-create",
  "judge:nuggets-label",
  ...RUNS.map((r) => `judge:nuggets-assign:${r}`),
  "measure:nuggets",
  "judge:keypoints/extract",
  "judge:keypoints/merge",
  ...RUNS.map((r) => `judge:keypoints/${r}`),
  "measure:keypoints",
  "judge:subq-decompose",
  "judge:subq-classify",
  "judge:subq-coverage",
  "measure:subq",
  "measure:compare",
];

Deno.test({
  name:
    "changing the judge model re-runs every method's judging, leaves only the new judge's rows, compare works",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = startOpenAiServer({ chat: (req) => ({ content: reply(req) }) });
    const dir = await Deno.makeTempDir({ prefix: "crux-judges-" });
    const workspace = await tinyWorkspaceDir();
    const config = join(dir, "exp.json");
    try {
      await writeConfig(config, workspace, server.url, "judge-a");
      const first = await crux(["run", "--config", config, "--until", "measure"]);
      assert.equal(first.code, 0, first.err);
      const before = await judges(workspace);
      // The config's methods (CRUX has no section) and the retrieval measures.
      const named = METHOD_REGISTRY.filter((m) => !m.section || m.key in SECTIONS);
      const methods = [...named.map((m) => m.key), "trec"].sort();
      assert.deepEqual([...new Set(before.map((r) => r.method))], methods);
      assert.deepEqual([...new Set(before.map((r) => r.judge))].sort(), [
        "judge-a",
        "judge-a~judge-a",
      ]);
      assert.ok(before.some((r) => r.method === "keypoints" && r.n > 0));
      assert.deepEqual(
        await means(workspace, "nuggets", "strict_vital", "judge-a"),
        Object.fromEntries(RUNS.map((r) => [r, 0])),
      );

      await writeConfig(config, workspace, server.url, "judge-b");
      server.reset();
      const second = await crux(["run", "--config", config, "--until", "measure"]);
      assert.equal(second.code, 0, second.err);
      assert.doesNotMatch(second.err, /error|choose one/i);
      for (const id of JUDGED_STAGES) {
        assert.match(
          second.err,
          new RegExp(`\\] ${id.replace(/[/]/g, "\\/")}: (params|upstream) changed`),
          `${id} re-ran`,
        );
      }
      const judgeCalls = server.log.filter((e) => e.path === "/v1/chat/completions");
      assert.ok(judgeCalls.length > 0);

      // Every row of every method now carries the new judge; nothing of the old is left.
      const after = await judges(workspace);
      assert.deepEqual([...new Set(after.map((r) => r.method))], methods);
      assert.deepEqual([...new Set(after.map((r) => r.judge))].sort(), [
        "judge-b",
        "judge-b~judge-b",
      ]);
      assert.deepEqual(
        after.map((r) => [r.method, r.source.replace("judge-b", "judge-a"), r.n]),
        before.map((r) => [r.method, r.source, r.n]),
        "the same rows as before, under the new judge",
      );
      assert.deepEqual(
        await means(workspace, "nuggets", "strict_vital", "judge-b"),
        Object.fromEntries(RUNS.map((r) => [r, 1])),
      );

      // The model ratings: reports and references by the new judge only; the passages
      // rated by both, the selection (what every passage reader follows) by the new one.
      const ws = await openWorkspace(workspace, { readOnly: true });
      try {
        const rated = await ws.query<{ kind: string; judges: string[] }>(
          `SELECT i.item_kind AS kind, list(DISTINCT judge ORDER BY judge) AS judges
             FROM ratings JOIN rated_items i USING (item_id, judge) GROUP BY ALL ORDER BY kind`,
        );
        assert.deepEqual(rated.map((r) => [r.kind, [...r.judges]]), [
          ["passage", ["judge-a", "judge-b"]],
          ["reference", ["judge-b"]],
          ["report", ["judge-b"]],
        ]);
        const selection = await ws.query<{ judge: string }>(
          "SELECT judge FROM qrels_info WHERE name = 'crux_pr'",
        );
        assert.deepEqual(selection.map((r) => r.judge), ["judge-b"]);
        assert.equal(await defaultReportJudge(ws), "judge-b");
        assert.equal(await passageJudge(ws, "measure"), "judge-b");
      } finally {
        ws.close();
      }

      const c = await crux(["compare", "--config", config, "--format", "json"]);
      assert.equal(c.code, 0, c.err);
      const compared = JSON.parse(c.out);
      const nuggets = compared.methods.find((m: { method: string }) => m.method === "nuggets");
      assert.equal(nuggets.judge, "judge-b");
      assert.deepEqual(
        compared.methods.map((m: { method: string }) => m.method),
        experimentHeadlines(METHOD_REGISTRY, SECTIONS).map((h) => h.method),
      );
    } finally {
      await Deno.remove(workspace, { recursive: true });
      await Deno.remove(dir, { recursive: true });
    }
  },
});
