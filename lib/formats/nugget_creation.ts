/**
 * TREC RAG 2024 nugget-creation input (AutoNuggetizer), JSONL:
 * `{"query": {"qid", "text"}, "candidates": [{"docid", "score"?, "judgment"?, "doc": {"segment"}}]}`.
 *
 * @module
 */
import { decodeJsonl, decodeJsonlFile, type Decoder, type Fields } from "./_json.ts";
import { countRepeats, once, Repeats } from "./_repeats.ts";

/** A candidate passage for nugget creation. */
export interface NuggetCandidate {
  docid: string;
  segment: string;
  score?: number;
  /** Graded relevance 0..3 (UMBRELA scale), when judged. */
  judgment?: number;
}

/** One query with its candidate passages. */
export interface NuggetCreationInput {
  qid: string;
  query: string;
  candidates: NuggetCandidate[];
}

/** Options of the nugget-creation readers. */
export interface NuggetCreationOptions {
  /** Candidates with a `judgment` below this are dropped (unjudged ones are kept). Default 1 (AutoNuggetizer: every candidate judged at least related). */
  minJudgment?: number;
  /**
   * Receives the number of lines that repeated an earlier line of the same query
   * exactly, which are dropped; the same query with other candidates is an error
   * naming both lines.
   */
  onDuplicates?: (count: number) => void;
}

function decodeOnce(minJudgment: number, repeats: Repeats): Decoder<NuggetCreationInput> {
  return once(
    decoder(minJudgment),
    repeats,
    (r) => r.qid,
    "query.qid",
    (r) => `query ${JSON.stringify(r.qid)}`,
  );
}

function decoder(minJudgment: number) {
  return (f: Fields): NuggetCreationInput | undefined => {
    const query = f.object("query");
    const qid = query?.string("qid", { coerce: true });
    const text = query?.string("text");
    const candidates: NuggetCandidate[] = [];
    for (const c of f.objects("candidates") ?? []) {
      const docid = c.string("docid", { coerce: true });
      const score = c.number("score", { optional: true });
      const judgment = c.number("judgment", { optional: true, integer: true });
      const segment = c.object("doc")?.string("segment");
      if (docid === undefined || segment === undefined) continue;
      if (judgment !== undefined && judgment < minJudgment) continue;
      const candidate: NuggetCandidate = { docid, segment };
      if (score !== undefined) candidate.score = score;
      if (judgment !== undefined) candidate.judgment = judgment;
      candidates.push(candidate);
    }
    return qid === undefined || text === undefined ? undefined : { qid, query: text, candidates };
  };
}

/**
 * Parses nugget-creation input, dropping candidates judged below `minJudgment`.
 *
 * @param text The JSONL text.
 * @param opts `file` for error messages; `minJudgment` (default 1: every candidate judged at
 *   least related); `onDuplicates`.
 * @returns One input per query, in file order.
 * @throws {InputError} Listing lines without `query.qid`/`query.text` or with malformed candidates.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const line = '{"query": {"qid": "q1", "text": "why?"}, "candidates": [' +
 *   '{"docid": "d1", "judgment": 1, "doc": {"segment": "a"}}, {"docid": "d2", "judgment": 3, "doc": {"segment": "b"}}]}';
 * const ids = (o: { minJudgment?: number }) =>
 *   parseNuggetCreationInput(line, { file: "in.jsonl", ...o })[0].candidates.map((c) => c.docid);
 * assert.deepEqual(ids({}), ["d1", "d2"]); // by default every candidate judged at least 1 (related)
 * assert.deepEqual(ids({ minJudgment: 2 }), ["d2"]);
 * ```
 */
export function parseNuggetCreationInput(
  text: string,
  opts: NuggetCreationOptions & { file: string },
): NuggetCreationInput[] {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonl(text, opts.file, decodeOnce(opts.minJudgment ?? 1, repeats)),
  );
}

/**
 * Reads a nugget-creation input file.
 *
 * @param path The JSONL file.
 * @param opts `minJudgment` (default 1: every candidate judged at least related); `onDuplicates`.
 * @returns One input per query.
 * @throws {InputError} As {@linkcode parseNuggetCreationInput}.
 * @example
 * ```ts
 * const path = `${await Deno.makeTempDir()}/creation_input.jsonl`;
 * await Deno.writeTextFile(path, '{"query": {"qid": "q1", "text": "why?"}, "candidates": [' +
 *   '{"docid": "d1", "judgment": 1, "doc": {"segment": "a"}}, {"docid": "d2", "judgment": 3, "doc": {"segment": "b"}}]}');
 * const inputs = await readNuggetCreationInput(path);
 * ```
 */
export function readNuggetCreationInput(
  path: string,
  opts: NuggetCreationOptions = {},
): Promise<NuggetCreationInput[]> {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonlFile(path, decodeOnce(opts.minJudgment ?? 1, repeats)),
  );
}
