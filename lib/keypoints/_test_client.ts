// A cached model client pointed at a loopback server, for the key point tests.

import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";

/** A client caching in a fresh workspace, pointed at a loopback server (tests only). */
export async function testClient(
  url: string,
  ws?: Workspace,
): Promise<{ client: LlmClient; ws: Workspace }> {
  const w = ws ?? await openWorkspace(await Deno.makeTempDir());
  const cache = await CallCache.open(w.connection);
  return {
    client: new LlmClient({
      baseUrl: url,
      model: "kp-model",
      cache,
      maxRetries: 1,
      backoffBaseMs: 1,
    }),
    ws: w,
  };
}
