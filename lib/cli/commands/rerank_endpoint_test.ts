import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { rerankCommand } from "./rerank.ts";
import { startOpenAiServer } from "../../../tests/support/openai_server.ts";

const jsonl = (...xs: unknown[]) => xs.map((x) => JSON.stringify(x)).join("\n") + "\n";

Deno.test("crux rerank --method endpoint: /rerank scores in batches, cached for the re-run", async () => {
  const dir = await Deno.makeTempDir();
  const p = (n: string) => join(dir, n);
  await Deno.writeTextFile(
    p("in.run"),
    "t1 Q0 a 1 4 bm25\nt1 Q0 b 2 3 bm25\nt1 Q0 c 3 2 bm25\nt1 Q0 d 4 1 bm25\nt2 Q0 e 1 1 bm25\n",
  );
  await Deno.writeTextFile(
    p("topics.jsonl"),
    jsonl({ id: "t1", request: "storm" }, { id: "t2", request: "quiet" }),
  );
  await Deno.writeTextFile(
    p("corpus.jsonl"),
    jsonl(
      { id: "a", contents: "alpha" },
      { id: "b", contents: "bravo" },
      { id: "c", contents: "charlie" },
      { id: "d", contents: "delta" },
      { id: "e", contents: "echo" },
    ),
  );
  // Scripted cross-encoder: d > b > c = a (a and c tie: first-stage order keeps a above c).
  const score: Record<string, number> = {
    alpha: 0.1,
    bravo: 0.7,
    charlie: 0.1,
    delta: 0.9,
    echo: 0.5,
  };
  await using server = startOpenAiServer({ score: (_q, doc) => score[doc] });
  const args = [
    "rerank",
    "--run",
    p("in.run"),
    "--topics",
    p("topics.jsonl"),
    "--corpus",
    p("corpus.jsonl"),
    "--method",
    "endpoint",
    "--batch",
    "3",
    "--model",
    "cross-encoder",
    "--base-url",
    server.url,
    "--workspace",
    p("ws"),
    "--out",
    p("out.run"),
  ];
  const io = memoryIo();
  assert.equal(await main(args, io, [rerankCommand]), 0, io.stderr());
  assert.equal(
    await Deno.readTextFile(p("out.run")),
    "t1 Q0 d 1 4 bm25-endpoint\nt1 Q0 b 2 3 bm25-endpoint\nt1 Q0 a 3 2 bm25-endpoint\n" +
      "t1 Q0 c 4 1 bm25-endpoint\nt2 Q0 e 1 1 bm25-endpoint\n",
  );
  // t1: 4 passages in batches of 3 = 2 requests; t2: 1 request.
  assert.equal(server.requests, 3);
  assert.deepEqual(server.log.map((l) => l.path), ["/v1/rerank", "/v1/rerank", "/v1/rerank"]);
  assert.match(io.stderr(), /3 request\(s\)/);
  // The re-run answers every request from the workspace's call cache.
  const again = memoryIo();
  assert.equal(await main(args, again, [rerankCommand]), 0, again.stderr());
  assert.equal(server.requests, 3);
  // Endpoint flags do not pass silently with another method.
  const wrong = memoryIo();
  const bad = args.map((a) => (a === "endpoint" ? "lexical" : a));
  assert.equal(await main(bad, wrong, [rerankCommand]), 2);
  assert.match(wrong.stderr(), /--batch only apply to --method endpoint/);
});
