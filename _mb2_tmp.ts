import { join } from "node:path";
import { openWorkspace } from "@lib/store/mod.ts";
import { newLlmCallStage, writeLlmCalls, createLlmCacheTables } from "@lib/store/llm_cache.ts";
import process from "node:process";
const dir = await Deno.makeTempDir();
const ws = await openWorkspace(dir);
await createLlmCacheTables(ws.connection);
const body = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do ".repeat(130).slice(0, 8000);
const stage = newLlmCallStage();
const mk = (b: number, i: number) => ({ key: `k${b}-${i}`, model: "bench", endpoint: "x chat", template: "t@1", params: {}, messages: [{ role: "user", content: `item ${b}-${i}\n${body}` }], response: "answer ".repeat(150), usage: { promptTokens: 1, completionTokens: 2 }, status: "ok", attempts: 1, latencyMs: 20 });
for (let b = 0; b < 6; b++) {
  const rows = Array.from({ length: 2000 }, (_, i) => mk(b, i));
  const c0 = process.cpuUsage(); const t0 = performance.now();
  await writeLlmCalls(ws.connection, rows, stage);
  const c = process.cpuUsage(c0);
  console.log(`batch ${b}: ${(performance.now() - t0).toFixed(0)} ms wall, cpu ${((c.user + c.system) / 1000).toFixed(0)} ms`);
}
const c0 = process.cpuUsage(); const t0 = performance.now();
await ws.connection.run("CHECKPOINT");
const c = process.cpuUsage(c0);
console.log(`checkpoint: ${(performance.now() - t0).toFixed(0)} ms wall, cpu ${((c.user + c.system) / 1000).toFixed(0)} ms`);
ws.close();
