import { openWorkspace } from "@lib/store/mod.ts";
import { newLlmCallStage, writeLlmCalls, createLlmCacheTables } from "@lib/store/llm_cache.ts";
import process from "node:process";
const mode = Deno.args[0];
if (Deno.args[1]) { await 0; }
const dir = await Deno.makeTempDir();
const ws = await openWorkspace(dir);
await createLlmCacheTables(ws.connection);
if (Deno.args[1]) await ws.connection.run(`SET checkpoint_threshold = '${Deno.args[1]}'`);
const body = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do ".repeat(130).slice(0, 8000);
const stage = newLlmCallStage();
const mk = (b: number, i: number) => ({ key: `k${b}-${i}`, model: "bench", endpoint: "x chat", template: "t@1", params: {}, messages: [{ role: "user", content: `item ${b}-${i}\n${body}` }], response: "answer ".repeat(150), usage: { promptTokens: 1, completionTokens: 2 }, status: "ok", attempts: 1, latencyMs: 20 });
let main = 0, tot = 0;
const mainTid = () => { const f = Deno.readTextFileSync(`/proc/self/task/${Deno.pid}/stat`).split(") ")[1].split(" "); return (Number(f[11]) + Number(f[12])) * 10; };
for (let b = 0; b < 6; b++) {
  const rows = Array.from({ length: 2000 }, (_, i) => mk(b, i));
  const file = `${dir}/seg${b}`;
  if (mode === "files") Deno.writeTextFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const c0 = process.cpuUsage(); const m0 = mainTid();
  if (0) 0;
  else await writeLlmCalls(ws.connection, rows, stage);
  const c = process.cpuUsage(c0);
  if (b > 0) { tot += (c.user + c.system) / 1000; main += mainTid() - m0; }
}
console.log(mode, `per 2000 rows: cpu ${(tot / 5).toFixed(0)} ms, main thread ${(main / 5).toFixed(0)} ms`);
const r = await ws.connection.runAndReadAll("SELECT count(*), sum(length(messages::VARCHAR)) FROM llm_calls");
console.log(r.getRows());
ws.close();
