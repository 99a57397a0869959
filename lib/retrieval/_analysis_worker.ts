// Worker analyzing documents for an index build; private to `@lib/retrieval`.

/**
 * Worker analyzing documents for an index build; private to `@lib/retrieval`.
 * It receives batches of texts in document order and answers each with their
 * term ids and the terms new to it ({@link TextBatcher}).
 */
/// <reference lib="deno.worker" />
import { TextBatcher } from "./_analysis.ts";

const batcher = new TextBatcher();

self.onmessage = (event: MessageEvent<{ texts: string[] }>) => {
  try {
    const reply = batcher.encode(event.data.texts);
    self.postMessage(reply, [reply.ids.buffer, reply.ends.buffer]);
  } catch (error) {
    self.postMessage({
      error: error instanceof Error ? error.stack ?? error.message : String(error),
    });
  }
};
