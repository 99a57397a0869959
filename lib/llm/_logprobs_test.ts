import assert from "node:assert/strict";
import { carriesLogprobs, LOGPROB_TOKENS, readLogprobs } from "./_logprobs.ts";

const entry = (token: string, logprob: number, top: [string, number][] = []) => ({
  token,
  logprob,
  bytes: [],
  top_logprobs: top.map(([t, l]) => ({ token: t, logprob: l, bytes: [] })),
});

Deno.test("readLogprobs keeps the first tokens and their alternatives; malformed or absent is null", () => {
  const choice = {
    logprobs: { content: [entry("[", -0.01), entry("B", -0.2, [["B", -0.2], ["A", -1.7]])] },
  };
  assert.deepEqual(readLogprobs(choice), [
    { token: "[", logprob: -0.01, top: [] },
    {
      token: "B",
      logprob: -0.2,
      top: [{ token: "B", logprob: -0.2 }, { token: "A", logprob: -1.7 }],
    },
  ]);
  const long = { logprobs: { content: Array.from({ length: 40 }, (_, i) => entry(`t${i}`, -i)) } };
  assert.equal(readLogprobs(long)?.length, LOGPROB_TOKENS);
  assert.equal(readLogprobs({ logprobs: null }), null);
  assert.equal(readLogprobs({}), null);
  assert.equal(readLogprobs({ logprobs: { content: [] } }), null);
  assert.equal(readLogprobs({ logprobs: { content: [{ token: "B", logprob: "x" }] } }), null);
  assert.equal(
    readLogprobs({ logprobs: { content: [entry("B", -1, [["A", Number.NaN]])] } }),
    null,
  );
});

Deno.test("carriesLogprobs: a plain request takes any call; one asking k needs at least k asked", () => {
  const none = {};
  const two = { logprobs: { topK: 2, tokens: null } };
  assert.deepEqual(
    [carriesLogprobs(none), carriesLogprobs(none, 1), carriesLogprobs(two, 2)],
    [true, false, true],
  );
  assert.deepEqual([carriesLogprobs(two, 3), carriesLogprobs(two, 0)], [false, true]);
});
