import assert from "node:assert/strict";
import type { Workspace } from "@lib/store/mod.ts";
import { withTempWorkspace } from "../../tests/support/temp_workspace.ts";
import { currentStage, runStages, type StageEvent, type StageSpec } from "./run_stages.ts";

/** A test on a new workspace (resources are not checked: DuckDB keeps handles past a test). */
function workspaceTest(name: string, fn: (ws: Workspace) => Promise<void>): void {
  Deno.test({ name, sanitizeResources: false, fn: () => withTempWorkspace(fn) });
}

workspaceTest(
  "runStages: a stage that exported requests holds back what depends on it, directly or not, and nothing else",
  async (ws) => {
    let exported = 0;
    const ran: string[] = [];
    const spec = (id: string, deps: string[], exports = 0): StageSpec => ({
      id,
      stage: "judge",
      version: 1,
      params: {},
      deps,
      run: () => {
        ran.push(id);
        exported += exports;
        return Promise.resolve(exports ? { summary: "exported", failed: exports } : "done");
      },
    });
    // a exports; b reads a; c reads b; d is independent; e reads d only.
    const specs = [
      spec("a", [], 3),
      spec("b", ["a"]),
      spec("c", ["b"]),
      spec("d", []),
      spec("e", ["d"]),
    ];
    const events: StageEvent[] = [];
    const r = await runStages(ws, specs, {
      order: ["judge"],
      exported: () => exported,
      onEvent: (e) => events.push(e),
    });
    assert.deepEqual(ran, ["a", "d", "e"]);
    assert.deepEqual(r.stopped, ["b", "c"]);
    assert.deepEqual(
      events.filter((e) => e.state === "stopped").map((e) => e.message),
      [
        "not started: waits for the exported requests of a",
        "not started: waits for the exported requests of b",
      ],
    );
    // Without the counter (a plain run) the failed stage does not hold anything back.
    ran.length = 0;
    const plain = await runStages(ws, specs, { order: ["judge"] });
    assert.deepEqual(ran, ["a", "b", "c"]);
    assert.deepEqual(plain.stopped, []);
  },
);

/** A `judge` instance without parameters, reading `deps`. */
function judgeStage(id: string, run: StageSpec["run"], deps: string[] = []): StageSpec {
  return { id, stage: "judge", version: 1, params: {}, deps, run };
}

/** A promise with its resolver, and a guard against a test that would hang. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 10_000);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

workspaceTest(
  "runStages with parallel: independent instances run at once, each in its own transaction; an instance starts after what it reads",
  async (ws) => {
    const log: string[] = [];
    const started = new Map(["a", "b", "c", "d", "e"].map((id) => [id, gate()]));
    const handles = new Map<string, unknown>();
    let live = 0;
    let peak = 0;
    const spec = (id: string, deps: string[], meet?: string): StageSpec => ({
      id,
      stage: "judge",
      version: 1,
      params: { id },
      deps,
      run: async (w) => {
        live++;
        peak = Math.max(peak, live);
        log.push(`start ${id}`);
        handles.set(id, w);
        started.get(id)!.open();
        // Inside a transaction of its own, wait until the other instance has started:
        // two stages sharing one connection could not both be in a transaction.
        await w.transaction(async () => {
          await w.exec("INSERT INTO memo (kind, key, fingerprint) VALUES ('test', $1, 'x')", [
            id,
          ]);
          if (meet) await within(started.get(meet)!.promise, `${meet} to start`);
        });
        log.push(`end ${id}`);
        live--;
        return `${id} done`;
      },
    });
    // a and b wait for each other; c is independent; d reads a and b; e reads d.
    const specs = [
      spec("a", [], "b"),
      spec("b", [], "a"),
      spec("c", []),
      spec("d", ["a", "b"]),
      spec("e", ["d"]),
    ];
    const events: StageEvent[] = [];
    const r = await within(
      runStages(ws, specs, { order: ["judge"], parallel: 2, onEvent: (e) => events.push(e) }),
      "the stages",
    );
    assert.deepEqual(r.ran, ["a", "b", "c", "d", "e"]);
    assert.equal(peak, 2, log.join(", "));
    const at = (entry: string) => log.indexOf(entry);
    assert.ok(at("start b") < at("end a") && at("start a") < at("end b"), log.join(", "));
    // c waits for a free slot; d for both a and b; e for d.
    assert.ok(at("start c") > Math.min(at("end a"), at("end b")), log.join(", "));
    assert.ok(at("start d") > Math.max(at("end a"), at("end b")), log.join(", "));
    assert.ok(at("start e") > at("end d"), log.join(", "));
    // Each ran on a fork of the workspace, and every row written in them is there.
    for (const h of handles.values()) {
      assert.notEqual(h, ws);
      assert.equal((h as { parent?: unknown }).parent, ws);
    }
    assert.equal(
      (await ws.query<{ n: number }>("SELECT count(*) AS n FROM memo WHERE kind = 'test'"))[0].n,
      5,
    );
    assert.deepEqual(
      events.filter((e) => e.state === "ran" && e.message.endsWith("done")).map((e) => e.id)
        .sort(),
      ["a", "b", "c", "d", "e"],
    );
    // An unchanged re-run: everything is fresh, nothing runs.
    log.length = 0;
    const again = await runStages(ws, specs, { order: ["judge"], parallel: 2 });
    assert.deepEqual(again.fresh, ["a", "b", "c", "d", "e"]);
    assert.deepEqual(log, []);
  },
);

workspaceTest(
  "runStages with parallel: a failing instance starts nothing more, lets the running ones finish and record, then throws",
  async (ws) => {
    const bStarted = gate();
    const ran: string[] = [];
    let broken = true;
    const specs: StageSpec[] = [
      judgeStage("a", async () => {
        await within(bStarted.promise, "b to start");
        ran.push("a");
        if (broken) throw new Error("a broke");
        return "a done";
      }),
      judgeStage("b", async () => {
        bStarted.open();
        await new Promise((resolve) => setTimeout(resolve, 50));
        ran.push("b");
        return "b done";
      }),
      ...["c", "d"].map((id) =>
        judgeStage(id, () => {
          ran.push(id);
          return Promise.resolve(`${id} done`);
        })
      ),
    ];
    await assert.rejects(
      () => runStages(ws, specs, { order: ["judge"], parallel: 2 }),
      Error,
      "a broke",
    );
    assert.deepEqual(ran, ["a", "b"]); // b finished; c and d never started
    broken = false;
    ran.length = 0;
    const again = await runStages(ws, specs, { order: ["judge"], parallel: 2 });
    assert.deepEqual(again.fresh, ["b"]); // recorded although a failed beside it
    assert.deepEqual(again.ran, ["a", "c", "d"]);
    assert.deepEqual(ran.sort(), ["a", "c", "d"]);
  },
);

workspaceTest(
  "runStages: parallel must be a positive integer, and with an export counter instances run one at a time",
  async (ws) => {
    let live = 0;
    let peak = 0;
    const specs = ["a", "b", "c"].map((id) =>
      judgeStage(id, async (w) => {
        assert.equal(w, ws); // one at a time: the workspace itself
        peak = Math.max(peak, ++live);
        await new Promise((resolve) => setTimeout(resolve, 10));
        live--;
        return "done";
      })
    );
    for (const bad of [0, 1.5, -2]) {
      await assert.rejects(
        () => runStages(ws, specs, { order: ["judge"], parallel: bad }),
        RangeError,
        `Invalid parallel ${bad}`,
      );
    }
    assert.equal(peak, 0); // rejected before anything ran
    const r = await runStages(ws, specs, { order: ["judge"], parallel: 3, exported: () => 0 });
    assert.deepEqual(r.ran, ["a", "b", "c"]);
    assert.equal(peak, 1);
  },
);

workspaceTest(
  "runStages with parallel: writes of instances running at once queue on one writer; one meeting a conflict still runs again, alone",
  async (ws) => {
    // b writes the key a holds in a transaction still open: the writes queue (a commits,
    // then b), so neither meets a conflict and nothing runs twice.
    const aWriting = gate();
    const attempts: string[] = [];
    const write = (id: string) =>
      judgeStage(id, async (w) => {
        attempts.push(id);
        if (id === "b") await within(aWriting.promise, "a's transaction");
        await w.transaction(async () => {
          await w.exec(
            "INSERT OR REPLACE INTO memo (kind, key, fingerprint) VALUES ('test', 'same', $1)",
            [id],
          );
          if (id === "a") {
            aWriting.open();
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        });
        return `${id} wrote`;
      });
    const events: StageEvent[] = [];
    const r = await within(
      runStages(ws, [write("a"), write("b")], {
        order: ["judge"],
        parallel: 2,
        onEvent: (e) => events.push(e),
      }),
      "the stages",
    );
    assert.deepEqual(r.ran, ["a", "b"]);
    // Each ran once (the two start at once, in either order; b waits for a's write).
    assert.deepEqual(attempts.sort(), ["a", "b"]);
    assert.equal(events.filter((e) => e.message.startsWith("again, alone")).length, 0);
    const [row] = await ws.query<{ fingerprint: string }>(
      "SELECT fingerprint FROM memo WHERE kind = 'test' AND key = 'same'",
    );
    assert.equal(row.fingerprint, "b"); // b's turn came after a's commit
    // A write conflict met beside another instance (a write outside the queue) is run
    // again, alone.
    const tries: string[] = [];
    const bothStarted = [gate(), gate()];
    const specs = ["e", "f"].map((id, i) =>
      judgeStage(id, async () => {
        tries.push(id);
        bothStarted[i].open();
        await within(bothStarted[1 - i].promise, "the other instance to start");
        if (id === "e" && tries.filter((x) => x === "e").length === 1) {
          throw new Error("TransactionContext Error: Conflict on update!");
        }
        return `${id} wrote`;
      })
    );
    const events2: StageEvent[] = [];
    const r2 = await within(
      runStages(ws, specs, { order: ["judge"], parallel: 2, onEvent: (e) => events2.push(e) }),
      "the stages",
    );
    assert.deepEqual(r2.ran, ["e", "f"]);
    assert.deepEqual(tries.sort(), ["e", "e", "f"]);
    const again = events2.filter((e) => e.message.startsWith("again, alone"));
    assert.deepEqual(again.map((e) => e.id), ["e"]);
    // A conflict in a run of one at a time is an error like any other (nothing beside it).
    const conflict = judgeStage(
      "c",
      () => Promise.reject(new Error("TransactionContext Error: Conflict on update!")),
    );
    await assert.rejects(
      () => runStages(ws, [conflict], { order: ["judge"] }),
      Error,
      "Conflict on update",
    );
  },
);

workspaceTest(
  "currentStage names the instance along its asynchronous calls, also for instances interleaved with parallel",
  async (ws) => {
    const reports: string[] = [];
    // A progress callback handed to the stages when they are declared, as crux run does.
    const progress = (step: string) => reports.push(`${currentStage() ?? "-"} ${step}`);
    const bothStarted = [gate(), gate()];
    const specs = ["x", "y"].map((id, i) =>
      judgeStage(`judge:${id}`, async () => {
        bothStarted[i].open();
        await within(bothStarted[1 - i].promise, "the other instance to start");
        progress("start");
        await new Promise((resolve) => setTimeout(resolve, i ? 5 : 20));
        await Promise.all([1, 2].map(async (k) => {
          await Promise.resolve();
          progress(`call ${k}`);
        }));
        return "done";
      })
    );
    const cleared: (string | undefined)[] = [];
    specs[0].clear = () => {
      cleared.push(currentStage());
      return Promise.resolve();
    };
    await runStages(ws, specs, { order: ["judge"], parallel: 2 });
    assert.deepEqual(reports.slice(0, 2).sort(), ["judge:x start", "judge:y start"]);
    // y's calls end first, while x still runs: each report names its own instance.
    assert.deepEqual(reports.slice(2), [
      "judge:y call 1",
      "judge:y call 2",
      "judge:x call 1",
      "judge:x call 2",
    ]);
    assert.deepEqual(cleared, ["judge:x"]);
    progress("outside");
    assert.equal(reports.at(-1), "- outside");
  },
);
