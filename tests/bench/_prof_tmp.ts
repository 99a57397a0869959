import { join } from "node:path";
import { CallCache, JOURNAL_FILE, LlmClient } from "@lib/llm/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { startOpenAiServerInWorker } from "../support/openai_server_worker.ts";
import { STAGES, stageRequests } from "./stages.ts";
import process from "node:process";
const mode = Deno.args[0] ?? "journal";
const c = Number(Deno.args[1] ?? 64);
const stageName = Deno.args[2] ?? "nugget creation";
const rule = new URL("file:///work/wt/bound/tests/bench/_stage_rule.ts").href;
await using server = await startOpenAiServerInWorker({ latencyMs: 20, rule: { module: rule, name: "stageShapeRule" }, keyOf: { module: rule, name: "stageKey" } });
const dir = await Deno.makeTempDir();
const ws = await openWorkspace(dir);
const cache = mode === "none" ? undefined : await CallCache.open(ws.connection, mode === "journal" ? { journal: join(dir, JOURNAL_FILE) } : {});
const s = STAGES.find((x) => x.name.includes(stageName))!;
const client = new LlmClient({ baseUrl: server.url, model: "bench", concurrency: c, cache });
await client.chatMany(stageRequests(s, 200, "warm"));
for (let r = 0; r < 3; r++) {
  const reqs = stageRequests(s, 2000, "r" + r);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await client.chatMany(reqs);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(`${mode} c=${c} ${s.name}: ${(2000 / ms * 1000).toFixed(0)} req/s wall, cpu ${((cpu.user + cpu.system) / 2000).toFixed(0)} us/req (user ${(cpu.user/2000).toFixed(0)}, sys ${(cpu.system/2000).toFixed(0)})`);
}
ws.close();
const tasks: Record<string, number> = {};
for (const e of Deno.readDirSync(`/proc/${Deno.pid}/task`)) {
  const comm = Deno.readTextFileSync(`/proc/${Deno.pid}/task/${e.name}/comm`).trim();
  const f = Deno.readTextFileSync(`/proc/${Deno.pid}/task/${e.name}/stat`).split(") ")[1].split(" ");
  const t = (Number(f[11]) + Number(f[12])) * 10;
  if (t > 50) tasks[`${comm}#${e.name}`] = t;
}
console.log(JSON.stringify(tasks));
