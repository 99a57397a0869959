// Pools every topic's passages into one corpus, as the CRUX release does.

import { streamCorpus, writeJsonl } from "@lib/formats/mod.ts";
import { readPassages, readTopics, type WorkspaceLike } from "@lib/store/mod.ts";

/** Options of {@link poolCorpus}. */
export interface PoolCorpusOptions {
  /** Only the passages of these topics. Default: every topic. */
  topics?: readonly string[];
  /** CRUX corpus JSONL of extra distractor documents (`{"id","contents"|"text"}`), appended. */
  distractors?: string;
  /** Called for notes such as distractor ids that clash with passage ids. */
  onNote?: (message: string) => void;
}

/** Counts of {@link poolCorpus}. */
export interface PoolCorpusResult {
  passages: number;
  distractors: number;
  /** Distractor lines skipped because their id was already in the corpus. */
  duplicates: number;
}

/**
 * Construction step `corpus`: writes the pooled corpus of all topics' passages
 * (topic by topic, in passage order), optionally followed by distractor
 * documents, as CRUX corpus JSONL `{"id", "contents"}`. The file is written
 * atomically (temporary file, then rename); distractors are streamed.
 *
 * @param ws The experiment workspace.
 * @param out Destination JSONL path (its folder must exist).
 * @param opts `topics`, `distractors` and `onNote`.
 * @returns How many passages and distractors were written.
 * @throws {InputError} When the distractor file is malformed.
 * @example
 * ```ts
 * import { poolCorpus } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const out = `${dir}/corpus.jsonl`; // e.g. outputs/exp/corpus.jsonl
 * await poolCorpus(ws, out); // `{ distractors: "extra.jsonl" }` mixes in other passages
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function poolCorpus(
  ws: WorkspaceLike,
  out: string,
  opts: PoolCorpusOptions = {},
): Promise<PoolCorpusResult> {
  const topics = await readTopics(ws, opts.topics);
  const passages = await readPassages(ws);
  const result: PoolCorpusResult = { passages: 0, distractors: 0, duplicates: 0 };
  const seen = new Set<string>();
  async function* records() {
    for (const t of topics) {
      for (const p of passages.get(t.topicId) ?? []) {
        seen.add(p.passageId);
        result.passages++;
        yield { id: p.passageId, contents: p.text };
      }
    }
    if (!opts.distractors) return;
    for await (const d of streamCorpus(opts.distractors)) {
      if (seen.has(d.id)) {
        result.duplicates++;
        continue;
      }
      seen.add(d.id);
      result.distractors++;
      yield { id: d.id, contents: d.contents };
    }
  }
  await writeJsonl(out, records());
  if (result.duplicates) {
    opts.onNote?.(
      `${result.duplicates} distractor documents of ${opts.distractors} reuse an id already in the corpus and were skipped`,
    );
  }
  return result;
}
