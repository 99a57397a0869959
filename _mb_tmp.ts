import { createHash } from "node:crypto";
import { cacheKey } from "./lib/llm/cache_key.ts";
const body = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do ".repeat(130).slice(0, 8000);
const parts = (i: number) => ({ model: "bench", params: {}, messages: [{ role: "user", content: `answer-chars: 1000\nitem x-${i}\n${body}` }], template: "nugget_create@1" });
function t(name: string, f: (i: number) => unknown, n = 20000) {
  for (let i = 0; i < 2000; i++) f(i);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f(i);
  console.log(name, ((performance.now() - t0) / n * 1000).toFixed(1), "us");
}
t("cacheKey", (i) => cacheKey(parts(i)));
t("stringify", (i) => JSON.stringify(parts(i)));
t("createHash only", (i) => createHash("sha256").update("x" + i).digest("hex"));
const s = JSON.stringify(parts(1));
t("hash 8k", (i) => createHash("sha256").update(s).digest("hex"));
const enc = new TextEncoder();
t("encode 8k", (i) => enc.encode(s));
