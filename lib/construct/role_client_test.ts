import assert from "node:assert/strict";
import { openWorkspace } from "@lib/store/mod.ts";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { roleClient } from "./role_client.ts";

Deno.test({
  name:
    "roleClient: clients of one role and settings share their limits, so clients used at once keep together to the concurrency",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = startOpenAiServer({ latencyMs: 30 });
    const dir = await Deno.makeTempDir();
    const ws = await openWorkspace(dir);
    try {
      const env = { CRUX_JUDGE_BASE_URL: server.url, CRUX_JUDGE_MODEL: "judge-m" };
      const open = (concurrency: number) =>
        roleClient(ws, "judge", { env, overrides: { concurrency } });
      const [a, b, other] = [await open(3), await open(3), await open(5)];
      assert.equal(a.client.limits, b.client.limits);
      assert.equal(a.client.limits.concurrency, 3);
      assert.notEqual(other.client.limits, a.client.limits);
      assert.equal(other.client.limits.concurrency, 5);
      // Another role with the same settings keeps limits of its own.
      const gen = await roleClient(ws, "generator", {
        env: { CRUX_GENERATOR_BASE_URL: server.url, CRUX_GENERATOR_MODEL: "judge-m" },
        overrides: { concurrency: 3 },
      });
      assert.notEqual(gen.client.limits, a.client.limits);
      // Two clients sending at once: never more than 3 requests on the wire together.
      const requests = (tag: string) =>
        Array.from(
          { length: 12 },
          (_, i) => ({ messages: [{ role: "user" as const, content: `${tag} ${i}` }] }),
        );
      const [ra, rb] = await Promise.all([
        a.client.chatMany(requests("a")),
        b.client.chatMany(requests("b")),
      ]);
      assert.equal([...ra, ...rb].filter((r) => r.status === "ok").length, 24);
      assert.equal(server.peakInFlight, 3);
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
