/**
 * BM25 benchmark on a generated, seeded collection shaped like the CRUX pooled
 * corpus: 565k passages of about 110 words drawn from a Zipfian vocabulary
 * (function words at the head, so stop-word removal matters), and 150 queries
 * of about 50 words. Reports build time, index size, load time, queries per
 * second (top 100) and memory.
 *
 * Run: `deno run -A tests/bench/bm25.ts [passages]` or through `deno task bench`.
 *
 * @module
 */
import { Bm25Index } from "@lib/retrieval/mod.ts";
import { seededRandom as prng } from "@lib/metrics/mod.ts";

const HEAD = (
  "the of and to a in that is was he for it with as his on be at by i this had not are but " +
  "from or have an they which one you were her all she there would their we him been has when " +
  "who will more no if out so said what up its about into than them can only other new some " +
  "could time these two may then do first any my now such like our over man me even most made"
).split(" ");
const SYLLABLES = (
  "ba be bi bo bu ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu ra re ri ro ru " +
  "sa se si so su ta te ti to tu va ve vi vo vu str pl gr tr an en in on un ar er ir or ur"
).split(" ");
const SUFFIXES = ["", "", "", "s", "ed", "ing", "ion", "ly", "er", "ness", "al", "ment"];

/** A seeded generator of Zipfian pseudo-English text. */
export function textGenerator(seed = 42, vocabSize = 300_000, exponent = 1.0) {
  const rand = prng(seed);
  const words: string[] = [...HEAD];
  const seen = new Set(words);
  while (words.length < vocabSize) {
    const n = 1 + Math.floor(rand() * 3);
    let w = "";
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    w += SUFFIXES[Math.floor(rand() * SUFFIXES.length)];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  const cdf = new Float64Array(vocabSize);
  let sum = 0;
  for (let r = 0; r < vocabSize; r++) cdf[r] = sum += 1 / (r + 1) ** exponent;
  for (let r = 0; r < vocabSize; r++) cdf[r] /= sum;
  const word = () => {
    const x = rand();
    let lo = 0;
    let hi = vocabSize - 1;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (cdf[m] < x) lo = m + 1;
      else hi = m;
    }
    return words[lo];
  };
  /** Text of about `n` words in sentences of 8-24 words. */
  return (n: number): string => {
    const parts: string[] = [];
    let left = n;
    while (left > 0) {
      const len = Math.min(left, 8 + Math.floor(rand() * 17));
      const s: string[] = [];
      for (let i = 0; i < len; i++) s.push(word());
      s[0] = s[0][0].toUpperCase() + s[0].slice(1);
      if (len > 6 && rand() < 0.5) s[3] += ",";
      parts.push(s.join(" ") + ".");
      left -= len;
    }
    return parts.join(" ");
  };
}

/** Generates the benchmark passages and queries (Zipf `exponent`, default 1.0). */
export function generateCollection(passages = 565_000, queries = 150, seed = 42, exponent = 1.0) {
  const text = textGenerator(seed, 300_000, exponent);
  const rand = prng(seed + 1);
  const docs = Array.from({ length: passages }, (_, i) => ({
    id: `p${i}`,
    text: text(90 + Math.floor(rand() * 41)),
  }));
  const topics = Array.from({ length: queries }, (_, i) => ({
    id: `q${i}`,
    text: text(40 + Math.floor(rand() * 21)),
  }));
  return { docs, topics };
}

const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;

/**
 * Runs the benchmark and returns lines of figures.
 *
 * @param opts `passages`: collection size (default 565,000).
 * @returns Human-readable lines (build, size, load, queries/s, memory).
 */
export async function bench(opts: { passages?: number } = {}): Promise<string[]> {
  const n = opts.passages ?? 565_000;
  const lines: string[] = [];
  let t = performance.now();
  const { docs, topics } = generateCollection(n);
  lines.push(
    `bm25: generated ${n} passages + ${topics.length} queries in ${
      ((performance.now() - t) / 1000).toFixed(1)
    } s`,
  );
  t = performance.now();
  const index = Bm25Index.build(docs);
  const buildS = (performance.now() - t) / 1000;
  const m = index.manifest();
  lines.push(
    `bm25: build ${buildS.toFixed(1)} s (${
      (n / buildS / 1000).toFixed(1)
    }k passages/s; ${m.terms} terms, ${m.postings} postings, ${
      (m.sumTotalTermFreq / n).toFixed(1)
    } terms/passage)`,
  );
  t = performance.now();
  const parallel = await Bm25Index.buildAsync(docs);
  const asyncS = (performance.now() - t) / 1000;
  if (parallel.manifest().postingBytes !== m.postingBytes) {
    throw new Error("Bm25Index.buildAsync built another index than Bm25Index.build");
  }
  lines.push(
    `bm25: buildAsync (analysis in worker threads) ${asyncS.toFixed(1)} s (${
      (buildS / asyncS).toFixed(2)
    }x as fast as build)`,
  );
  const dir = await Deno.makeTempDir({ prefix: "bm25-bench-" });
  try {
    t = performance.now();
    await index.save(`${dir}/index`);
    const saveS = (performance.now() - t) / 1000;
    let size = 0;
    for await (const e of Deno.readDir(`${dir}/index`)) {
      size += (await Deno.stat(`${dir}/index/${e.name}`)).size;
    }
    lines.push(`bm25: save ${saveS.toFixed(1)} s, index size ${mb(size)}`);
    t = performance.now();
    const loaded = await Bm25Index.load(`${dir}/index`);
    lines.push(`bm25: load ${((performance.now() - t) / 1000).toFixed(2)} s`);
    t = performance.now();
    loaded.search(topics[0].text, 100);
    lines.push(
      `bm25: first search (norm + bound precomputation) ${
        ((performance.now() - t) / 1000).toFixed(2)
      } s`,
    );
    t = performance.now();
    for (const q of topics) loaded.search(q.text, 100);
    const qs = (performance.now() - t) / 1000;
    lines.push(
      `bm25: ${topics.length} queries (top 100) in ${qs.toFixed(2)} s = ${
        (topics.length / qs).toFixed(1)
      } queries/s`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const mem = Deno.memoryUsage();
  lines.push(
    `bm25: memory rss ${mb(mem.rss)}, heap used ${mb(mem.heapUsed)}, external ${mb(mem.external)}`,
  );
  return lines;
}

if (import.meta.main) {
  const n = Deno.args[0] ? Number(Deno.args[0]) : undefined;
  for (const line of await bench({ passages: n })) console.log(line);
}
