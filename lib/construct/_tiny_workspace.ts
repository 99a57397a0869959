/** Test helper: a temporary workspace loaded with the tiny made-up dataset of `testdata/tiny.json`. */
import {
  openWorkspace,
  type Workspace,
  writeDocumentRows,
  writeTopicRows,
} from "@lib/store/mod.ts";
import type { Document, Topic } from "@lib/types/mod.ts";

const FIXTURE = new URL("./testdata/tiny.json", import.meta.url);

/** Opens a fresh workspace in a temp dir with the tiny topics and documents; dispose to delete it. */
export async function tinyWorkspace(): Promise<Workspace & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "crux-construct-" });
  const ws = await openWorkspace(dir);
  const data = JSON.parse(await Deno.readTextFile(FIXTURE)) as {
    topics: Topic[];
    documents: Document[];
  };
  await writeTopicRows(ws, data.topics);
  await writeDocumentRows(ws, data.documents);
  return Object.assign(ws, {
    [Symbol.asyncDispose]: async () => {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    },
  });
}
