import { openWorkspace } from "@lib/store/mod.ts";
import { createLlmCacheTables } from "@lib/store/llm_cache.ts";
import process from "node:process";
const dir = await Deno.makeTempDir();
const ws = await openWorkspace(dir);
const con = ws.connection;
await createLlmCacheTables(con);
const body = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do ".repeat(130).slice(0, 8000);
await con.run(`CREATE TEMP TABLE st (key VARCHAR, model VARCHAR, endpoint VARCHAR, template VARCHAR, params VARCHAR, messages VARCHAR, response VARCHAR, usage VARCHAR, status VARCHAR, error VARCHAR, attempts INTEGER, latency_ms DOUBLE, logprobs VARCHAR)`);
const COLUMNS = "key, model, endpoint, template, params, messages, response, usage, status, error, attempts, latency_ms";
async function step(name: string, f: () => unknown) {
  const c0 = process.cpuUsage(); const t0 = performance.now();
  await f();
  const c = process.cpuUsage(c0);
  console.log(`  ${name}: ${(performance.now() - t0).toFixed(0)} ms wall, cpu ${((c.user + c.system) / 1000).toFixed(0)} ms`);
}
for (let b = 0; b < 4; b++) {
  console.log("batch", b);
  await step("append", async () => {
    const a = await con.createAppender("st", "main", "temp");
    for (let i = 0; i < 2000; i++) {
      a.appendVarchar(`k${b}-${i}`); a.appendVarchar("bench"); a.appendVarchar("x chat"); a.appendVarchar("t@1");
      a.appendVarchar("{}"); a.appendVarchar(JSON.stringify([{ role: "user", content: `item ${b}-${i}\n${body}` }]));
      a.appendVarchar("answer ".repeat(150)); a.appendVarchar('{"promptTokens":1,"completionTokens":2}'); a.appendVarchar("ok");
      a.appendNull(); a.appendInteger(1); a.appendDouble(20); a.appendNull(); a.endRow();
    }
    a.flushSync(); a.closeSync();
  });
  const mode = Deno.args[0];
  if (mode === "plain") await step("insert plain", () => con.run(`INSERT INTO llm_calls (${COLUMNS}, created_at) SELECT ${COLUMNS}, now() FROM temp.st`));
  if (mode === "varchar") { if (b === 0) await con.run("CREATE TABLE v AS SELECT * FROM temp.st LIMIT 0"); await step("insert varchar table", () => con.run(`INSERT INTO v SELECT * FROM temp.st`)); }
  if (mode === "nopk") { if (b === 0) await con.run("CREATE TABLE v (key VARCHAR, model VARCHAR, endpoint VARCHAR, template VARCHAR, params JSON, messages JSON, response VARCHAR, usage JSON, status VARCHAR, error VARCHAR, attempts INTEGER, latency_ms DOUBLE, created_at TIMESTAMP)"); await step("insert json no pk", () => con.run(`INSERT INTO v (${COLUMNS}, created_at) SELECT ${COLUMNS}, now() FROM temp.st`)); }
  if (mode === "replace") await step("insert or replace", () => con.run(`INSERT OR REPLACE INTO llm_calls (${COLUMNS}, created_at) SELECT ${COLUMNS}, now() FROM temp.st`));
  await step("delete logprobs using", () => con.run(`DELETE FROM llm_logprobs USING temp.st WHERE llm_logprobs.key = st.key`));
  await step("delete stage", () => con.run(`DELETE FROM temp.st`));
}
ws.close();
