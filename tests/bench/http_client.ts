/**
 * Main-thread CPU per model call of the two HTTP paths of the transport:
 * `fetch` against the lean HTTP/1.1 client, at concurrency 64 against a
 * `Deno.serve` server in its own process (so the CPU counted is the client's
 * alone). Each round sends the same chat-shaped requests through
 * `openAiTransport(...).post` (the fetch path forced by passing `fetch`) and
 * through the bare clients; rounds alternate so that both meet the same load.
 *
 * `deno run -A tests/bench/http_client.ts [--n 4000] [--c 64] [--rounds 3] [--latency 20]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import process from "node:process";
import { openAiTransport } from "@lib/llm/_transport.ts";
import { http1Request } from "@lib/llm/_http1.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    n: { type: "string", default: "4000" },
    c: { type: "string", default: "64" },
    rounds: { type: "string", default: "3" },
    latency: { type: "string", default: "20" },
  },
});
const n = Number(values.n), c = Number(values.c), rounds = Number(values.rounds);

const serverCode = `
const latency = ${Number(values.latency)};
const answer = JSON.stringify({
  choices: [{ message: { role: "assistant", content: "Yes, the passage supports it." } }],
  usage: { prompt_tokens: 700, completion_tokens: 8 },
});
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(port) },
  async (req) => {
    await req.text();
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));
    return new Response(answer, { headers: { "content-type": "application/json" } });
  });
`;
const child = new Deno.Command(Deno.execPath(), {
  args: ["eval", serverCode],
  stdout: "piped",
  stderr: "inherit",
}).spawn();
const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
const port = Number((await reader.read()).value?.trim());
const base = `http://127.0.0.1:${port}/v1`;
const prompt = "lorem ipsum dolor sit amet ".repeat(100); // about 2,800 characters
const body = (i: number) => ({
  model: "m",
  messages: [{ role: "user", content: `${i} ${prompt}` }],
  temperature: 0,
});

const lean = openAiTransport({ baseUrl: base, apiKey: "sk-bench" });
const viaFetch = openAiTransport({
  baseUrl: base,
  apiKey: "sk-bench",
  fetch: (u, i) => fetch(u, i),
});
const url = new URL(`${base}/chat/completions`);
const headers = { "content-type": "application/json", authorization: "Bearer sk-bench" };

const paths: Record<string, (i: number) => Promise<unknown>> = {
  "transport, fetch": (i) => viaFetch.post("/chat/completions", body(i), { timeoutMs: 30_000 }),
  "transport, lean client": (i) => lean.post("/chat/completions", body(i), { timeoutMs: 30_000 }),
  "bare fetch": async (i) =>
    (await fetch(url, { method: "POST", headers, body: JSON.stringify(body(i)) })).text(),
  "bare lean client": async (i) =>
    (await http1Request(url, { method: "POST", headers, body: JSON.stringify(body(i)) })).text,
};

/** Sends `n` requests with `c` in flight; returns client CPU (µs) per request and requests/s. */
async function measure(send: (i: number) => Promise<unknown>): Promise<[number, number]> {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: c }, async () => {
    while (next < n) await send(next++);
  }));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return [(cpu.user + cpu.system) / n, n / seconds];
}

for (const send of Object.values(paths)) await measure(send); // warm-up
const results: Record<string, [number, number][]> = {};
for (let r = 0; r < rounds; r++) {
  for (const [name, send] of Object.entries(paths)) {
    (results[name] ??= []).push(await measure(send));
  }
}
console.log(
  `${n} requests per round, concurrency ${c}, ${values.latency} ms server latency, ${rounds} rounds`,
);
console.log("client CPU per request (µs) and requests/s, median of the rounds:");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, rs] of Object.entries(results)) {
  const cpu = median(rs.map((x) => x[0])), rate = median(rs.map((x) => x[1]));
  console.log(
    `  ${name.padEnd(24)} ${cpu.toFixed(0).padStart(5)} µs  ${rate.toFixed(0).padStart(6)} req/s` +
      `  (rounds: ${rs.map((x) => x[0].toFixed(0)).join(", ")} µs)`,
  );
}
console.log(`load average: ${Deno.loadavg().map((x) => x.toFixed(1)).join(" ")} (on 2 cores)`);
child.kill();
await child.status;
