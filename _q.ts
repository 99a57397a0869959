import { openWorkspace } from "@lib/store/mod.ts";
const ws = await openWorkspace(Deno.args[0]);
console.table(await ws.query(Deno.args[1]));
await ws.close();
