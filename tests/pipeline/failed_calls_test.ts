// Failed, null and empty model answers never become numbers: `crux run` and
// `crux judge reports` against the test server with faults exit 1 and name the
// incomplete stages; a plain re-run against a healthy server sends exactly the
// calls that had no result, and the measure table then equals a clean run's.
import assert from "node:assert/strict";
import { requestHash, writeFaultConfig } from "./_faults.ts";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { runCommand } from "@lib/cli/commands/run.ts";
import { judgeCommand } from "@lib/cli/commands/judge.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { type Reply, startOpenAiServer } from "../support/openai_server.ts";
import { fakeReply } from "../support/fake_model.ts";
import { tinyWorkspaceDir } from "./_tiny.ts";

type Mode = "healthy" | "http" | "null" | "empty";

/** 40% of the requests (by key) get the fault of the mode; the rest a plausible answer. */
function faultOf(mode: Mode, key: string): Reply | undefined {
  const h = requestHash(key) % 10;
  if (mode === "healthy" || h >= 4) return undefined;
  if (mode === "http") return h % 2 ? { status: 429, retryAfter: 0.01 } : { status: 500 };
  return { content: mode === "null" ? null : h % 2 ? "" : "  \n" };
}

/** A test server whose faults follow `state.mode`; remembers which keys had a result. */
function faultyServer(state: { mode: Mode }) {
  const answered = new Set<string>();
  const faulted = new Set<string>();
  const server = startOpenAiServer({
    chat: (req, { key }) => {
      const fault = faultOf(state.mode, key);
      if (fault) {
        faulted.add(key);
        return fault;
      }
      answered.add(key);
      return { content: fakeReply(req) };
    },
  });
  return { server, answered, faulted };
}

async function writeConfig(dir: string, workspace: string, url: string): Promise<string> {
  const file = join(dir, `config-${workspace.split("/").at(-1)}.json`);
  return await writeFaultConfig(file, workspace, url);
}

type Row = Record<string, unknown>;

async function measures(dir: string): Promise<Row[]> {
  const ws = await openWorkspace(dir);
  try {
    return await ws.query<Row>(
      `SELECT run, topic_id, measure, judge, source, method, value, topics FROM measures
       ORDER BY run, topic_id, measure, judge, source`,
    );
  } finally {
    ws.close();
  }
}

const rowKey = (r: Row) => `${r.run}|${r.topicId}|${r.measure}|${r.judge}|${r.source}`;

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, [runCommand, judgeCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

/** Every row of `partial` is a row of `clean` with the same value; some clean rows are missing. */
function assertSubset(partial: Row[], clean: Row[]) {
  const byKey = new Map(clean.map((r) => [rowKey(r), r]));
  for (const r of partial) {
    assert.deepEqual(r, byKey.get(rowKey(r)), `row ${rowKey(r)} equals the clean run's`);
  }
  assert.ok(partial.length < clean.length, "rows computed from failed items are absent");
}

async function cleanMeasures(tmp: string): Promise<Row[]> {
  const state = { mode: "healthy" as Mode };
  const { server } = faultyServer(state);
  await using _ = server;
  const dir = await tinyWorkspaceDir();
  const config = await writeConfig(tmp, dir, server.url);
  const r = await crux(["run", "--config", config, "--until", "measure"]);
  assert.equal(r.code, 0, r.err);
  const rows = await measures(dir);
  await Deno.remove(dir, { recursive: true });
  return rows;
}

const CASES: { mode: Mode; from: "start" | "generate"; parallel?: number }[] = [
  { mode: "http", from: "start" },
  { mode: "http", from: "generate" },
  { mode: "null", from: "generate" },
  { mode: "empty", from: "generate" },
  // Stages at once: the same outcomes, and the re-run still sends only the failed calls.
  { mode: "http", from: "generate", parallel: 4 },
];

for (const { mode, from, parallel } of CASES) {
  const at = parallel ? ["--parallel", String(parallel)] : [];
  Deno.test(
    `crux run with 40% ${mode} faults from ${from}${
      parallel ? `, ${parallel} stages at once` : ""
    }: exit 1, no value from a failed item, a re-run sends only the failed calls`,
    async () => {
      const tmp = await Deno.makeTempDir({ prefix: "crux-faults-" });
      const clean = await cleanMeasures(tmp);
      assert.ok(clean.some((r) => r.source === "report" && r.topicId === "all"));

      const state = { mode: "healthy" as Mode };
      const { server, answered, faulted } = faultyServer(state);
      await using _ = server;
      const dir = await tinyWorkspaceDir();
      const config = await writeConfig(tmp, dir, server.url);
      try {
        // Faults on every call, or the data (passages, questions, selection) first and
        // faults on every later call.
        if (from === "generate") {
          assert.equal((await crux(["run", "--config", config, "--until", "select"])).code, 0);
        }
        state.mode = mode;
        const faulty = await crux(["run", "--config", config, "--until", "measure", ...at]);
        assert.equal(faulty.code, 1, "failed items make the exit status 1");
        assert.ok(faulted.size > 0);
        if (from === "generate") {
          assert.match(faulty.out, /Incomplete: generate:\S+: [12] failed, 0 unparsed of 2 items/);
          assert.match(faulty.out, /Incomplete: judge:\S+: \d+ failed, 0 unparsed of \d+ items/);
        } else {
          assert.match(
            faulty.out,
            /Incomplete: construct: \d+ failed, 0 unparsed of \d+ items/,
            faulty.err,
          );
        }
        assert.match(faulty.out, /Retry exactly those items with: deno task crux run --config /);
        assert.match(faulty.err, /more failed or unparsed items than --allow-failed 0 accepts/);
        const ws = await openWorkspace(dir);
        try {
          const calls = await ws.query<{ status: string; n: number }>(
            "SELECT status, count(*)::INTEGER AS n FROM llm_calls GROUP BY status ORDER BY status",
          );
          assert.deepEqual(
            calls.filter((c) => c.status !== "ok").map((c) => [c.status, c.n]),
            [["failed", faulted.size]],
            "each faulty answer is stored as a failed call, none as an answer",
          );
        } finally {
          ws.close();
        }
        assertSubset(await measures(dir), clean);

        // A share high enough accepts the failures (same stages, exit 0).
        const accepted = await crux([
          "run",
          "--config",
          config,
          "--until",
          "measure",
          "--allow-failed",
          "1",
          ...at,
        ]);
        assert.equal(accepted.code, 0, accepted.err);
        assert.match(accepted.out, /Incomplete: (construct|generate):/);

        // Healthy again: the re-run sends the failed calls and the calls that depend on them.
        state.mode = "healthy";
        const before = new Set(answered);
        const failedKeys = [...faulted].filter((k) => !before.has(k));
        server.reset();
        const again = await crux(["run", "--config", config, "--until", "measure", ...at]);
        assert.equal(again.code, 0, again.err);
        const sent = server.log.filter((e) => e.path === "/v1/chat/completions").map((e) => e.key);
        assert.equal(new Set(sent).size, sent.length, "no request sent twice");
        assert.deepEqual(sent.filter((k) => before.has(k)), [], "no answered call is sent again");
        for (const k of failedKeys) assert.ok(sent.includes(k), "every failed call is sent again");
        assert.deepEqual(await measures(dir), clean, "the measure table equals a clean run's");
        // Progress names the stage instance it belongs to (several run at once with --parallel).
        const progress = again.err.split("\n").filter((l) => l.endsWith(" calls done"));
        assert.ok(progress.length >= 2, again.err);
        for (const line of progress) {
          assert.match(
            line,
            /^run: \[(construct|generate:\S+|judge:\S+)\] .+: (\d+)\/\2 calls done$/,
          );
        }

        server.reset();
        const third = await crux(["run", "--config", config, "--until", "measure", ...at]);
        assert.equal(third.code, 0);
        assert.equal(server.requests, 0, "complete now: a plain re-run sends nothing");
        assert.match(third.out, /Stages: 0 ran/);
      } finally {
        await Deno.remove(dir, { recursive: true });
        await Deno.remove(tmp, { recursive: true });
      }
    },
  );
}

Deno.test("crux judge reports with 40% faults: exit 1, no Cov or Den from partial ratings, a re-run sends only the failed calls", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "crux-faults-" });
  const state = { mode: "healthy" as Mode };
  const { server, answered, faulted } = faultyServer(state);
  await using _ = server;
  // Two workspaces with the same data and reports: one judged cleanly, one with faults.
  const dirs = [await tinyWorkspaceDir(), await tinyWorkspaceDir()];
  const judge = (dir: string) =>
    crux([
      "judge",
      "reports",
      "--workspace",
      dir,
      "--backend",
      "openai",
      "--model",
      "judge-model",
      "--base-url",
      server.url,
      "--max-retries",
      "0",
    ]);
  try {
    for (const dir of dirs) {
      const config = await writeConfig(tmp, dir, server.url);
      assert.equal((await crux(["run", "--config", config, "--until", "generate"])).code, 0);
    }
    const [cleanDir, dir] = dirs;
    assert.equal((await judge(cleanDir)).code, 0);
    const clean = await measures(cleanDir);
    assert.ok(clean.some((r) => r.source === "report" && r.topicId === "all"));

    // The faulty judge asks only what the clean one asked (the same reports): none
    // of those answers is cached in `dir`, so 40% of them fail.
    state.mode = "http";
    const before = new Set(answered);
    server.reset();
    faulted.clear();
    const faulty = await judge(dir);
    assert.equal(faulty.code, 1, "failed ratings make the exit status 1");
    assert.ok(faulted.size > 0);
    assert.match(
      faulty.err,
      new RegExp(`judge reports: ${faulted.size} failed and 0 unparsed of \\d+ ratings`),
    );
    assert.match(faulty.err, /Retry exactly those ratings with: deno task crux judge reports /);
    assert.match(faulty.err, /Run "[^"]+": no mean Cov or Den of its reports; \d+ ratings failed/);
    assertSubset(await measures(dir), clean);
    const means = (rows: Row[]) =>
      rows.filter((r) => r.source === "report" && r.topicId === "all").map((r) => r.run);
    assert.ok(
      means(await measures(dir)).length < means(clean).length,
      "a run with a failed rating has no mean",
    );

    state.mode = "healthy";
    const failedKeys = [...faulted];
    server.reset();
    const again = await judge(dir);
    assert.equal(again.code, 0, again.err);
    const sent = server.log.filter((e) => e.path === "/v1/chat/completions").map((e) => e.key);
    assert.deepEqual(sent.sort(), failedKeys.sort(), "exactly the failed calls are sent again");
    assert.ok(sent.every((k) => before.has(k)), "the clean workspace asked the same calls");
    assert.deepEqual(await measures(dir), clean, "the measure table equals a clean run's");
  } finally {
    for (const d of dirs) await Deno.remove(d, { recursive: true });
    await Deno.remove(tmp, { recursive: true });
  }
});
