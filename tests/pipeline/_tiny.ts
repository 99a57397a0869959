/** Test helper: a temp workspace folder pre-loaded with the tiny made-up topics and documents. */
import { openWorkspace } from "@lib/store/mod.ts";

const FIXTURE = new URL("../../lib/construct/testdata/tiny.json", import.meta.url);

/** Creates a workspace folder with the tiny dataset (closed again); returns its path. */
export async function tinyWorkspaceDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "crux-pipeline-" });
  const ws = await openWorkspace(dir);
  const data = JSON.parse(await Deno.readTextFile(FIXTURE));
  await ws.upsert("topics", data.topics);
  await ws.upsert("documents", data.documents);
  ws.close();
  return dir;
}
