import assert from "node:assert/strict";
import fc from "fast-check";
import { formatTopicSet, parseTopicSet, type TopicSet } from "./topic_set.ts";

Deno.test("a topic set of one dataset is written with its dataset last and reads back", () => {
  assert.equal(
    formatTopicSet({ kind: "answerable", tau: 3, n: 40, dataset: "multi_news" }),
    "answerable(tau=3,n=40,dataset=multi_news)",
  );
  assert.deepEqual(parseTopicSet("judged(n=10,dataset=duc04)"), {
    kind: "judged",
    n: 10,
    dataset: "duc04",
  });
  // A dataset name's special characters are escaped as a topic id's are.
  assert.equal(
    formatTopicSet({ kind: "all", n: 2, dataset: "a b,c" }),
    "all(n=2,dataset=a%20b%2Cc)",
  );
  // Out of order, empty, or on one topic: refused with the reason.
  assert.throws(
    () => parseTopicSet("judged(dataset=duc04,n=10)"),
    /judged takes n= in that order, then an optional dataset=/,
  );
  assert.throws(() => parseTopicSet("judged(n=10,dataset=)"), /dataset is empty/);
  assert.throws(
    () => parseTopicSet("topic(id=t1,dataset=duc04)"),
    /topic takes id= in that order$/,
  );
  assert.throws(() => formatTopicSet({ kind: "judged", n: 1, dataset: "" }), /dataset is empty/);
});

Deno.test("every topic set, with or without a dataset, reads back as written", () => {
  const name = fc.string({ minLength: 1, maxLength: 12 });
  const n = fc.nat(1000);
  const dataset = fc.option(name, { nil: undefined });
  const set: fc.Arbitrary<TopicSet> = fc.oneof(
    name.map((id): TopicSet => ({ kind: "topic", id })),
    fc.record({ tau: fc.integer({ min: 0, max: 5 }), n, dataset }).map((x): TopicSet => ({
      kind: "answerable",
      tau: x.tau,
      n: x.n,
      ...(x.dataset === undefined ? {} : { dataset: x.dataset }),
    })),
    fc.record({ kind: fc.constantFrom("judged", "all", "scored"), n, dataset }).map((x) =>
      ({
        kind: x.kind,
        n: x.n,
        ...(x.dataset === undefined ? {} : { dataset: x.dataset }),
      }) as TopicSet
    ),
  );
  fc.assert(fc.property(set, (s) => {
    const text = formatTopicSet(s);
    assert.deepEqual(parseTopicSet(text), s);
    assert.equal(formatTopicSet(parseTopicSet(text)), text);
  }));
});
