import { openWorkspace } from "@lib/store/mod.ts";
import { createLlmCacheTables } from "@lib/store/llm_cache.ts";
import { DuckDBTimestampValue } from "@duckdb/node-api";
import process from "node:process";
const dir = await Deno.makeTempDir();
const ws = await openWorkspace(dir);
const con = ws.connection;
await createLlmCacheTables(con);
const body = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do ".repeat(130).slice(0, 8000);
let tot = 0;
for (let b = 0; b < 6; b++) {
  const c0 = process.cpuUsage();
  const a = await con.createAppender("llm_calls");
  const now = new DuckDBTimestampValue(BigInt(Date.now()) * 1000n);
  for (let i = 0; i < 2000; i++) {
    a.appendVarchar(`k${b}-${i}`); a.appendVarchar("bench"); a.appendVarchar("x chat"); a.appendVarchar("t@1");
    a.appendVarchar("{}"); a.appendVarchar(JSON.stringify([{ role: "user", content: `item ${b}-${i}\n${body}` }]));
    a.appendVarchar("answer ".repeat(150)); a.appendVarchar('{"promptTokens":1,"completionTokens":2}'); a.appendVarchar("ok");
    a.appendNull(); a.appendInteger(1); a.appendDouble(20); a.appendTimestamp(now); a.endRow();
  }
  a.flushSync(); a.closeSync();
  const c = process.cpuUsage(c0);
  if (b > 0) tot += (c.user + c.system) / 1000;
}
console.log(`direct appender per 2000 rows: cpu ${(tot / 5).toFixed(0)} ms`);
const r = await con.runAndReadAll("SELECT count(*), sum(length(messages::VARCHAR)), min(created_at) FROM llm_calls");
console.log(r.getRows());
ws.close();
