// Worker side of startOpenAiServerInWorker: runs the server on its own thread.
/// <reference lib="deno.worker" />
import { type OpenAiTestServer, type ServerOptions, startOpenAiServer } from "./openai_server.ts";

let server: OpenAiTestServer | undefined;

self.onmessage = async (e: MessageEvent) => {
  const msg = e.data as {
    type: string;
    opts?: Omit<ServerOptions, "chat">;
    rule?: { module: string; name: string };
  };
  if (msg.type === "start") {
    const opts: ServerOptions = { ...msg.opts };
    if (msg.rule) opts.chat = (await import(msg.rule.module))[msg.rule.name];
    server = startOpenAiServer(opts);
    self.postMessage({ type: "started", url: server.url });
  } else if (msg.type === "stats") {
    self.postMessage({
      type: "stats",
      requests: server!.requests,
      counts: [...server!.counts],
      log: server!.log,
    });
  } else if (msg.type === "close") {
    await server?.close();
    self.postMessage({ type: "closed" });
  }
};
