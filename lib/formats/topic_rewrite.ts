/**
 * Topic id rewriting for files that name the same topics differently (older CRUX
 * files say `duc04-testb-N` where newer ones say `duc04-test-N`).
 *
 * @module
 */
import { itemTopic } from "./passage_id.ts";

/**
 * Builds a rewrite from `FROM=TO` specs: an id starting with `FROM` gets that
 * prefix replaced by `TO`; the first matching spec wins and other ids pass unchanged.
 *
 * @param specs Specs such as `duc04-testb-=duc04-test-`.
 * @returns The rewrite function.
 * @throws {SyntaxError} When a spec has no `=` or an empty `FROM`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const rewrite = prefixRewrite(["duc04-testb-=duc04-test-"]);
 * assert.equal(rewrite("duc04-testb-7"), "duc04-test-7");
 * ```
 */
export function prefixRewrite(specs: readonly string[]): (id: string) => string {
  const rules = specs.map((spec) => {
    const eq = spec.indexOf("=");
    if (eq <= 0) {
      throw new SyntaxError(
        `Cannot use topic rewrite ${
          JSON.stringify(spec)
        }: expected FROM=TO, e.g. duc04-testb-=duc04-test-`,
      );
    }
    return [spec.slice(0, eq), spec.slice(eq + 1)] as const;
  });
  return (id) => {
    for (const [from, to] of rules) if (id.startsWith(from)) return to + id.slice(from.length);
    return id;
  };
}

/**
 * Applies a topic rewrite to an item id that starts with its topic id
 * (`{topic}:...`), leaving other ids unchanged.
 *
 * @param itemId A passage or report id.
 * @param topicId The item's topic as written in the file.
 * @param newTopicId The rewritten topic id.
 * @returns The item id under the new topic id.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(rewriteItem("duc04-testb-7:1#3", "duc04-testb-7", "duc04-test-7"), "duc04-test-7:1#3");
 * ```
 */
export function rewriteItem(itemId: string, topicId: string, newTopicId: string): string {
  if (topicId === newTopicId || !itemId.startsWith(topicId + ":")) return itemId;
  return newTopicId + itemId.slice(topicId.length);
}

/**
 * Applies a topic rewrite to an item id under the item's own topic (the part
 * before `:` of `{topic}:{doc}#{n}` or `{topic}:report`), whatever topic it is
 * ranked or rated under: a passage of another topic's document follows its own
 * topic's rewrite. Ids that name no topic pass unchanged.
 *
 * @param itemId A passage or report id.
 * @param rewrite The topic rewrite (see {@linkcode prefixRewrite}).
 * @returns The item id under its rewritten topic.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const rewrite = prefixRewrite(["duc04-testb-=duc04-test-"]);
 * assert.equal(rewriteOwnTopic("duc04-testb-19:1#3", rewrite), "duc04-test-19:1#3");
 * assert.equal(rewriteOwnTopic("AP880212-0001", rewrite), "AP880212-0001");
 * ```
 */
export function rewriteOwnTopic(itemId: string, rewrite: (id: string) => string): string {
  const from = itemTopic(itemId);
  return from === undefined ? itemId : rewriteItem(itemId, from, rewrite(from));
}
