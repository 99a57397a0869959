/**
 * The topic set of a stored measure value: one topic, or the experiment's topics
 * less those a stated rule excludes, with the number of topics the set holds.
 * One formatter ({@linkcode formatTopicSet}) and one parser
 * ({@linkcode parseTopicSet}); `measure_key.ts` writes it into a measure key.
 *
 * @module
 */

/**
 * Which topics a value is over:
 * - `topic`: one topic (a per-topic value), `topic(id=duc04-test-9)`;
 * - `answerable`: the experiment's topics less those without a sub-question
 *   answerable at `tau` (Cov and Den), `answerable(tau=3,n=49)`;
 * - `judged`: the topics with relevance judgments (P, nDCG, alpha-nDCG...), `judged(n=50)`;
 * - `all`: every topic of the experiment, none excluded, `all(n=50)`;
 * - `scored`: the topics of the answers every compared method (or sampled
 *   judge) scored, the set a comparison of methods runs over, `scored(n=10)`.
 *
 * Every kind but `topic` may name a `dataset`: the same rule over one
 * dataset's topics only (a per-dataset mean in a workspace holding several),
 * `answerable(tau=3,n=40,dataset=multi_news)`.
 */
export type TopicSet =
  | { kind: "topic"; id: string }
  | { kind: "answerable"; tau: number; n: number; dataset?: string }
  | { kind: "judged"; n: number; dataset?: string }
  | { kind: "all"; n: number; dataset?: string }
  | { kind: "scored"; n: number; dataset?: string };

/** Characters a topic id is written with as `%XX` (upper-case hex), so the set parses back. */
const ESCAPED = /[%(),=|\s]/g;

function escapeId(id: string): string {
  return id.replace(
    ESCAPED,
    (ch) =>
      [...new TextEncoder().encode(ch)].map((b) =>
        `%${b.toString(16).toUpperCase().padStart(2, "0")}`
      )
        .join(""),
  );
}

function unescapeId(text: string, whole: string): string {
  if (/%(?![0-9A-F]{2})/.test(text)) {
    throw new SyntaxError(
      `Cannot read topic set "${whole}": a "%" must be followed by two upper-case hex digits`,
    );
  }
  try {
    return decodeURIComponent(text);
  } catch {
    throw new SyntaxError(
      `Cannot read topic set "${whole}": its topic id is not valid percent-encoded UTF-8`,
    );
  }
}

/**
 * Writes a topic set: `topic(id=...)`, `answerable(tau=3,n=49)`, `judged(n=50)`,
 * `all(n=50)` or `scored(n=10)`, a dataset last (`judged(n=40,dataset=multi_news)`). A
 * topic id's or dataset's `%`, parentheses, commas, `=`, `|` and white space are written `%XX`.
 *
 * @param set The topic set.
 * @returns Its canonical string.
 * @throws {RangeError} For a count that is not a whole number >= 0, or an empty topic id.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatTopicSet } from "@lib/metrics/topic_set.ts";
 * assert.equal(formatTopicSet({ kind: "answerable", tau: 3, n: 49 }), "answerable(tau=3,n=49)");
 * assert.equal(formatTopicSet({ kind: "topic", id: "duc04-test-9" }), "topic(id=duc04-test-9)");
 * assert.equal(formatTopicSet({ kind: "judged", n: 40, dataset: "duc04" }), "judged(n=40,dataset=duc04)");
 * ```
 */
export function formatTopicSet(set: TopicSet): string {
  if (set.kind === "topic") {
    if (!set.id) throw new RangeError("Cannot write a topic set of one topic with an empty id");
    return `topic(id=${escapeId(set.id)})`;
  }
  if (!Number.isInteger(set.n) || set.n < 0) {
    throw new RangeError(
      `Cannot write topic set ${set.kind}: n must be a whole number >= 0, got ${set.n}`,
    );
  }
  if (set.dataset === "") {
    throw new RangeError(`Cannot write topic set ${set.kind}: its dataset is empty`);
  }
  const dataset = set.dataset === undefined ? "" : `,dataset=${escapeId(set.dataset)}`;
  if (set.kind === "answerable") {
    if (!Number.isFinite(set.tau)) {
      throw new RangeError(
        `Cannot write topic set answerable: tau must be a finite number, got ${set.tau}`,
      );
    }
    return `answerable(tau=${set.tau},n=${set.n}${dataset})`;
  }
  return `${set.kind}(n=${set.n}${dataset})`;
}

/** The parameters each kind takes, in written order. */
const PARAMS: Record<TopicSet["kind"], readonly string[]> = {
  topic: ["id"],
  answerable: ["tau", "n"],
  judged: ["n"],
  all: ["n"],
  scored: ["n"],
};

/**
 * Reads a topic set written by {@linkcode formatTopicSet}; for every canonical
 * string `s`, `formatTopicSet(parseTopicSet(s)) === s`.
 *
 * @param text The string.
 * @returns The topic set.
 * @throws {SyntaxError} Naming the string and what is wrong with it.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTopicSet } from "@lib/metrics/topic_set.ts";
 * assert.deepEqual(parseTopicSet("judged(n=50)"), { kind: "judged", n: 50 });
 * ```
 */
export function parseTopicSet(text: string): TopicSet {
  const m = /^([a-z]+)\((.*)\)$/s.exec(text);
  const kinds = Object.keys(PARAMS).join(", ");
  if (!m || !(m[1] in PARAMS)) {
    throw new SyntaxError(
      `Cannot read topic set "${text}": expected one of ${kinds} with its parameters, e.g. answerable(tau=3,n=49)`,
    );
  }
  const kind = m[1] as TopicSet["kind"];
  const parts = m[2].split(",");
  // A dataset, written last, qualifies every kind but one topic.
  const last = parts.at(-1)!;
  const datasetText = kind !== "topic" && last.startsWith("dataset=")
    ? parts.pop()!.slice("dataset=".length)
    : undefined;
  let dataset: string | undefined;
  if (datasetText !== undefined) {
    dataset = unescapeId(datasetText, text);
    if (!dataset || escapeId(dataset) !== datasetText) {
      throw new SyntaxError(
        `Cannot read topic set "${text}": the dataset is empty or not written canonically`,
      );
    }
  }
  const of = dataset === undefined ? {} : { dataset };
  const want = PARAMS[kind];
  const names = parts.map((p) => p.slice(0, p.indexOf("=")));
  if (parts.some((p) => p.indexOf("=") <= 0) || names.join(",") !== want.join(",")) {
    throw new SyntaxError(
      `Cannot read topic set "${text}": ${kind} takes ${
        want.map((p) => `${p}=`).join(",")
      } in that order${kind === "topic" ? "" : ", then an optional dataset="}`,
    );
  }
  const value = (i: number) => parts[i].slice(parts[i].indexOf("=") + 1);
  const number = (i: number, whole: boolean) => {
    const v = value(i);
    const x = Number(v);
    if (
      v === "" || !Number.isFinite(x) || String(x) !== v ||
      (whole && (!Number.isInteger(x) || x < 0))
    ) {
      throw new SyntaxError(
        `Cannot read topic set "${text}": ${want[i]} must be ${
          whole ? "a whole number >= 0" : "a number"
        } written plainly, got "${v}"`,
      );
    }
    return x;
  };
  switch (kind) {
    case "topic": {
      const id = unescapeId(value(0), text);
      if (!id) throw new SyntaxError(`Cannot read topic set "${text}": the topic id is empty`);
      if (escapeId(id) !== value(0)) {
        throw new SyntaxError(
          `Cannot read topic set "${text}": the topic id is not written canonically`,
        );
      }
      return { kind, id };
    }
    case "answerable":
      return { kind, tau: number(0, false), n: number(1, true), ...of };
    default:
      return { kind, n: number(0, true), ...of };
  }
}
