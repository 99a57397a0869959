// Worker side of startOpenAiServerInWorker: runs the server on its own thread.
/// <reference lib="deno.worker" />
import { type OpenAiTestServer, type ServerOptions, startOpenAiServer } from "./openai_server.ts";

let server: OpenAiTestServer | undefined;

self.onmessage = async (e: MessageEvent) => {
  const msg = e.data as {
    type: string;
    opts?: Omit<ServerOptions, "chat">;
    rule?: { module: string; name: string };
    keyOf?: { module: string; name: string };
    since?: number;
    counts?: boolean;
  };
  if (msg.type === "start") {
    const opts: ServerOptions = { ...msg.opts };
    if (msg.rule) opts.chat = (await import(msg.rule.module))[msg.rule.name];
    if (msg.keyOf) opts.keyOf = (await import(msg.keyOf.module))[msg.keyOf.name];
    server = startOpenAiServer(opts);
    self.postMessage({ type: "started", url: server.url });
  } else if (msg.type === "stats") {
    self.postMessage({
      type: "stats",
      requests: server!.requests,
      counts: msg.counts === false ? [] : [...server!.counts],
      log: msg.since ? server!.log.slice(msg.since) : server!.log,
    });
  } else if (msg.type === "close") {
    await server?.close();
    self.postMessage({ type: "closed" });
  }
};
