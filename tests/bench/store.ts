/**
 * Store and formats benchmark on a generated corpus shaped like the CRUX pooled
 * corpus (565k passages of about 150 words, 10 ratings each): streaming read
 * throughput of corpus and judgment JSONL, appender insert and upsert of 500k
 * passages, the CRUX corpus import end to end, a typed read and a Parquet export.
 *
 * Run: `deno run -A tests/bench/store.ts [--quick]` or through `deno task bench`.
 *
 * @module
 */
import { join } from "node:path";
import { readJudgments, streamCorpus } from "@lib/formats/mod.ts";
import { importCrux, openWorkspace } from "@lib/store/mod.ts";
import type { Passage } from "@lib/types/mod.ts";

const WORDS = "storm bridge harbor council ferry cable engineer festival orchard valley report"
  .split(" ");

function passageText(i: number): string {
  const words: string[] = [];
  for (let k = 0; k < 150; k++) words.push(WORDS[(i * 7 + k * 13) % WORDS.length]);
  return words.join(" ");
}

async function writeLines(path: string, n: number, line: (i: number) => string): Promise<number> {
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  let bytes = 0;
  for (let start = 0; start < n; start += 10_000) {
    const chunk: string[] = [];
    for (let i = start; i < Math.min(n, start + 10_000); i++) chunk.push(line(i));
    const data = enc.encode(chunk.join("\n") + "\n");
    bytes += data.length;
    await file.write(data);
  }
  return bytes;
}

const rate = (n: number, ms: number) => `${Math.round(n / (ms / 1000)).toLocaleString("en")}/s`;

/** Runs the benchmark; `quick` uses 50k passages instead of 565k. */
export async function bench(opts: { quick?: boolean } = {}): Promise<string[]> {
  const n = opts.quick ? 50_000 : 565_000;
  const dir = await Deno.makeTempDir();
  const out: string[] = [];
  const topic = (i: number) => `multi_news-test-${Math.floor(i / 100)}`;
  const pid = (i: number) => `${topic(i)}:${Math.floor((i % 100) / 10)}#${i % 100}`;
  const corpus = join(dir, "corpus.jsonl");
  const bytes = await writeLines(
    corpus,
    n,
    (i) => JSON.stringify({ id: pid(i), contents: passageText(i) }),
  );
  const judgments = join(dir, "judgments.jsonl");
  await writeLines(
    judgments,
    n,
    (i) => JSON.stringify({ id: topic(i), docid: pid(i), rating: [5, 0, 3, 1, 0, 2, 4, 0, 0, 1] }),
  );

  let t = performance.now();
  let count = 0;
  for await (const _ of streamCorpus(corpus)) count++;
  let ms = performance.now() - t;
  out.push(
    `corpus stream read: ${count} passages (${(bytes / 2 ** 20).toFixed(0)} MiB) in ${
      (ms / 1000).toFixed(2)
    } s = ${rate(count, ms)}, ${(bytes / 2 ** 20 / (ms / 1000)).toFixed(0)} MiB/s`,
  );

  t = performance.now();
  const js = await readJudgments(judgments);
  ms = performance.now() - t;
  out.push(
    `judgments read: ${js.length} lines x 10 ratings in ${(ms / 1000).toFixed(2)} s = ${
      rate(js.length, ms)
    }`,
  );

  const m = Math.min(n, 500_000);
  const passages: Passage[] = [];
  for (let i = 0; i < m; i++) {
    passages.push({
      passageId: pid(i),
      topicId: topic(i),
      docId: pid(i).split("#")[0],
      text: passageText(i),
    });
  }
  const ws = await openWorkspace(join(dir, "ws"));
  try {
    t = performance.now();
    await ws.insert("passages", passages);
    ms = performance.now() - t;
    out.push(`insert (appender): ${m} passages in ${(ms / 1000).toFixed(2)} s = ${rate(m, ms)}`);
    t = performance.now();
    await ws.upsert("passages", passages);
    ms = performance.now() - t;
    out.push(`upsert (replace all): ${m} passages in ${(ms / 1000).toFixed(2)} s = ${rate(m, ms)}`);
    t = performance.now();
    const back = await ws.passages();
    ms = performance.now() - t;
    out.push(
      `typed read passages(): ${back.length} in ${(ms / 1000).toFixed(2)} s = ${
        rate(back.length, ms)
      }`,
    );
    t = performance.now();
    await ws.exportTable("passages", join(dir, "passages.parquet"), "parquet");
    ms = performance.now() - t;
    out.push(`export parquet: ${m} passages in ${(ms / 1000).toFixed(2)} s`);
  } finally {
    ws.close();
  }
  const ws2 = await openWorkspace(join(dir, "ws2"));
  try {
    t = performance.now();
    const counts = await importCrux(ws2, { corpus, judgments });
    ms = performance.now() - t;
    out.push(
      `importCrux corpus + judgments: ${counts.passages} passages, ${counts.ratings} ratings in ${
        (ms / 1000).toFixed(2)
      } s`,
    );
  } finally {
    ws2.close();
  }
  await Deno.remove(dir, { recursive: true });
  return out;
}

if (import.meta.main) {
  for (const line of await bench({ quick: Deno.args.includes("--quick") })) console.log(line);
}
