import assert from "node:assert/strict";
import { openWorkspace } from "@lib/store/mod.ts";
import { runStages, type StageEvent, type StageSpec } from "./run_stages.ts";

Deno.test({
  name:
    "runStages: a stage that exported requests holds back what depends on it, directly or not, and nothing else",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const ws = await openWorkspace(dir);
    try {
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
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
