/**
 * Which topics `crux eval`'s files share (private to the command): a run that
 * shares none with the judgments a measure reads is an error, with a
 * `--rewrite` suggestion; qrels and ratings covering different topics is a note.
 *
 * @module
 */
import type { Judged } from "@lib/metrics/judged.ts";
import type { MeasureNeeds } from "@lib/metrics/measure.ts";
import { defaultRegistry } from "@lib/metrics/default_registry.ts";
import type { EvalOptions } from "./_eval_options.ts";

/** Up to `n` ids, comma separated, with `...` when there are more. */
function some(ids: readonly string[], n = 3): string {
  return ids.slice(0, n).join(", ") + (ids.length > n ? ", ..." : "");
}

/** Topics holding the judgments of one kind, in first-seen order. */
function judgedTopics(judged: Judged, needs: MeasureNeeds): string[] {
  return judged.topicIds.filter((id) => judged.topics.get(id)?.[needs]);
}

/** The file that holds the judgments of one kind, as the user named it. */
function sourceOf(needs: MeasureNeeds, opts: EvalOptions): string {
  const file = needs === "qrels" ? opts.qrels : needs === "diversity" ? opts.divQrels : undefined;
  return file
    ? `the ${needs === "qrels" ? "qrels" : "diversity qrels"} "${file}"`
    : `the judgments "${opts.judgments}"`;
}

/** How many of `ids` the rewrite `spec` (`FROM=TO`) maps onto one of `targets`. */
function mapped(spec: string, ids: readonly string[], targets: ReadonlySet<string>): number {
  const [from, to] = [spec.slice(0, spec.indexOf("=")), spec.slice(spec.indexOf("=") + 1)];
  return ids.filter((id) => id.startsWith(from) && targets.has(to + id.slice(from.length))).length;
}

/**
 * A prefix rewrite `FROM=TO` that maps run topic ids onto judged ones
 * (`duc04-testb-=duc04-test-`), found by stripping the ids' common ending;
 * undefined when none maps any run topic.
 */
export function suggestRewrite(
  runIds: readonly string[],
  judgedIds: readonly string[],
): string | undefined {
  const sample = runIds.slice(0, 200);
  const targets = new Set(judgedIds);
  let best: string | undefined;
  let bestHits = 0;
  const tried = new Set<string>();
  for (const r of runIds.slice(0, 5)) {
    for (const j of judgedIds.slice(0, 200)) {
      let s = 0;
      while (s < r.length && s < j.length && r[r.length - 1 - s] === j[j.length - 1 - s]) s++;
      // Keep separators with the prefixes: duc04-testb-=duc04-test-, not duc04-testb=duc04-test.
      while (s > 0 && !/[\p{L}\p{N}]/u.test(r[r.length - s])) s--;
      const from = r.slice(0, r.length - s);
      const to = j.slice(0, j.length - s);
      const spec = `${from}=${to}`;
      if (!from || from === to || tried.has(spec)) continue;
      tried.add(spec);
      const hits = mapped(spec, sample, targets);
      if (hits > bestHits) [best, bestHits] = [spec, hits];
    }
  }
  return best;
}

/**
 * Throws when the run shares no topic with the judgments of some measure.
 *
 * @param path The run file, for the message.
 * @param topics The run's topic ids.
 * @throws {Error} Naming a few run and judged topic ids and suggesting `--rewrite`.
 */
export function checkSharedTopics(
  path: string,
  topics: readonly string[],
  judged: Judged,
  opts: EvalOptions,
): void {
  const registry = defaultRegistry();
  const needs = new Set(opts.measures.map((m) => registry.require(m.name).needs));
  for (const kind of needs) {
    if (!judged.has[kind]) continue; // the evaluator says which file is missing
    if (topics.some((t) => judged.topics.get(t)?.[kind])) continue;
    const judgedIds = judgedTopics(judged, kind);
    const spec = suggestRewrite(topics, judgedIds);
    const hint = spec
      ? `(--rewrite ${spec} would map ${
        mapped(spec, topics, new Set(judgedIds))
      } of them onto judged topics)`
      : "(e.g. --rewrite duc04-testb-=duc04-test-)";
    throw new Error(
      `Cannot evaluate run "${path}": none of its ${topics.length} topics is in ${
        sourceOf(kind, opts)
      } (run topics: ${some(topics)}; judged topics: ${some(judgedIds)}). ` +
        `If the files name the same topics differently, map the ids with --rewrite FROM=TO ${hint}`,
    );
  }
}

/**
 * A note when the qrels and the ratings cover different topics (each measure
 * then averages over its own), or undefined.
 */
export function topicSetNote(judged: Judged, opts: EvalOptions): string | undefined {
  if (!opts.qrels || !opts.judgments) return undefined;
  const onlyQrels: string[] = [];
  const onlyRatings: string[] = [];
  for (const [id, t] of judged.topics) {
    if (t.qrels && !t.crux) onlyQrels.push(id);
    if (t.crux && !t.qrels) onlyRatings.push(id);
  }
  if (!onlyQrels.length && !onlyRatings.length) return undefined;
  const list = (ids: string[]) => ids.length ? ` (${some(ids)})` : "";
  return `# the qrels and the judgments cover different topics: ${onlyQrels.length} only in the ` +
    `qrels${list(onlyQrels)}, ${onlyRatings.length} only in the judgments${list(onlyRatings)}; ` +
    "qrels measures average over qrels topics, Cov and Den over judged ones";
}
