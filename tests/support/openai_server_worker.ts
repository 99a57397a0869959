/**
 * The OpenAI test server ({@link startOpenAiServer}) on its own thread, for
 * throughput tests and benchmarks where the server must not share the client's
 * event loop. The chat rule is named by module URL and export, since functions
 * cannot cross threads; counters and the log are fetched with `stats()`.
 *
 * ```ts
 * await using server = await startOpenAiServerInWorker({
 *   latencyMs: 50,
 *   rule: { module: new URL("./rules.ts", import.meta.url).href, name: "ratingRule" },
 * });
 * const { requests, counts } = await server.stats();
 * ```
 *
 * @module
 */
import type { LoggedRequest, ServerOptions } from "./openai_server.ts";

/** Counters and log of a worker server. */
export interface WorkerServerStats {
  requests: number;
  counts: Map<string, number>;
  log: LoggedRequest[];
}

/** A test server running in a worker. */
export interface WorkerServer extends AsyncDisposable {
  url: string;
  /**
   * Counters and log. `since`: only the log from that index on (the full log grows
   * with every request and is copied across threads); `counts: false` leaves the
   * per-key counts out (an empty map).
   */
  stats(opts?: { since?: number; counts?: boolean }): Promise<WorkerServerStats>;
  close(): Promise<void>;
}

/**
 * Starts the test server in a worker thread.
 *
 * @param opts Server options without functions, plus `rule`: the module URL and export
 *   name of the chat rule (default: answers `"ok"`), and `keyOf`: the same for the
 *   request key (default: the last message's content).
 * @returns The running server.
 */
export async function startOpenAiServerInWorker(
  opts: Pick<ServerOptions, "latencyMs" | "apiKey" | "logprobs"> & {
    rule?: { module: string; name: string };
    /** The request key function ({@link ServerOptions.keyOf}), named like `rule`. */
    keyOf?: { module: string; name: string };
  },
): Promise<WorkerServer> {
  const worker = new Worker(new URL("./_server_worker.ts", import.meta.url), { type: "module" });
  const ask = <T>(message: unknown, reply: string) =>
    new Promise<T>((resolve) => {
      const on = (e: MessageEvent) => {
        if (e.data.type !== reply) return;
        worker.removeEventListener("message", on);
        resolve(e.data as T);
      };
      worker.addEventListener("message", on);
      worker.postMessage(message);
    });
  const { rule, keyOf, ...rest } = opts;
  const { url } = await ask<{ url: string }>(
    { type: "start", opts: rest, rule, keyOf },
    "started",
  );
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await ask({ type: "close" }, "closed");
    worker.terminate();
  };
  return {
    url,
    async stats(o = {}) {
      const s = await ask<{ requests: number; counts: [string, number][]; log: LoggedRequest[] }>(
        { type: "stats", since: o.since ?? 0, counts: o.counts ?? true },
        "stats",
      );
      return { requests: s.requests, counts: new Map(s.counts), log: s.log };
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
