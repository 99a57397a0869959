/**
 * Cache lookups on a large call cache (`deno task bench -- --only cache_lookup`,
 * or `deno run -A tests/bench/cache_lookup.ts [--calls N]`): a workspace whose
 * `llm_calls` holds N calls (default 1.5 million, the size of a TREC-sized
 * experiment's cache; `--quick` 200,000) with 3,000-character prompts, then
 * 10,000 keys looked up as a stage does before sending its calls: all absent
 * (a new stage) and all present (a stage re-run after a kill), through
 * `CallCache.getMany` without prompts and with them. The anchor, timed in the
 * same run on the same workspace, is the previous lookup: `IN` lists of 500
 * keys joined with the log-probabilities table, rows read as objects.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { CallCache } from "@lib/llm/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";

/** Median of a few timings, in ms. */
async function timed(rounds: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

/** Runs the benchmark and returns report lines. */
export async function bench(opts: { quick?: boolean; calls?: number } = {}): Promise<string[]> {
  const calls = opts.calls ?? (opts.quick ? 200_000 : 1_500_000);
  const dir = await Deno.makeTempDir({ prefix: "crux-bench-lookup-" });
  const ws = await openWorkspace(dir);
  const lines: string[] = [];
  try {
    const t0 = performance.now();
    await ws.exec(
      `INSERT INTO llm_calls SELECT sha256(i::VARCHAR), 'bench', 'http://bench/v1 chat', 't@1',
         '{}', '[{"role":"user","content":"' || repeat('lorem ipsum ', 250) || i::VARCHAR || '"}]',
         'yes', '{"promptTokens":750,"completionTokens":1}', 'ok', NULL, 1, 20.0, now()
       FROM range(${calls}) t(i)`,
    );
    await ws.exec("CHECKPOINT");
    lines.push(
      `cache of ${calls} calls with 3,000-character prompts built in ${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s; 10,000 keys per lookup, median of 3`,
    );
    const cache = await CallCache.open(ws.connection);
    const stride = Math.floor(calls / 10_000);
    const present = (await ws.query<{ k: string }>(
      `SELECT sha256((i * ${stride})::VARCHAR) AS k FROM range(10000) t(i)`,
    )).map((r) => r.k);
    const absent = present.map((k) => `new-${k}`);
    /** The previous lookup: `IN` lists of 500 keys joined with the log-probabilities, no prompts. */
    const inLists = async (keys: string[]) => {
      let found = 0;
      for (let i = 0; i < keys.length; i += 500) {
        const part = keys.slice(i, i + 500);
        found += (await ws.connection.runAndReadAll(
          `SELECT c.key, c.model, c.endpoint, c.template, c.params::VARCHAR AS params,
             NULL AS messages, c.response, c.usage::VARCHAR AS usage, c.status, c.error,
             c.attempts, c.latency_ms, l.logprobs::VARCHAR AS logprobs
           FROM llm_calls c LEFT JOIN llm_logprobs l ON l.key = c.key
           WHERE c.key IN (${part.map(() => "?").join(",")})`,
          part,
        )).getRowObjectsJS().length;
      }
      return found;
    };
    for (const [name, keys] of [["absent", absent], ["present", present]] as const) {
      const expected = name === "present" ? keys.length : 0;
      const check = (n: number) => {
        if (n !== expected) throw new Error(`${name} lookup found ${n} of ${keys.length}`);
      };
      const lean = await timed(
        3,
        async () => check((await cache.getMany(keys, { messages: false })).size),
      );
      const full = await timed(3, async () => check((await cache.getMany(keys)).size));
      const anchor = await timed(3, async () => check(await inLists(keys)));
      lines.push(
        `${name.padEnd(7)} keys: getMany ${lean.toFixed(0)} ms without prompts, ${
          full.toFixed(0)
        } ms with them; IN lists of 500 ${anchor.toFixed(0)} ms (${
          (anchor / lean).toFixed(1)
        }x the time without prompts)`,
      );
    }
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
  return lines;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { calls: { type: "string" }, quick: { type: "boolean", default: false } },
  });
  const lines = await bench({
    quick: values.quick,
    calls: values.calls ? Number(values.calls) : undefined,
  });
  for (const line of lines) console.log(line);
}
