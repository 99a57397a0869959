import { http1Request } from "@lib/llm/_http1.ts";
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
  await req.text();
  await new Promise((r) => setTimeout(r, 20));
  return new Response('{"choices":[{"message":{"content":"Yes"}}]}', { headers: { "content-type": "application/json" } });
});
const url = new URL(`http://127.0.0.1:${server.addr.port}/v1/chat/completions`);
const body = JSON.stringify({ m: "lorem ipsum ".repeat(250) });
let next = 0;
const n = 20000;
await Promise.all(Array.from({ length: 64 }, async () => {
  while (next++ < n) await http1Request(url, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer x" }, body });
}));
await server.shutdown();
