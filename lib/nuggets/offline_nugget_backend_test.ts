import assert from "node:assert/strict";
import { offlineNuggetBackend } from "./offline_nugget_backend.ts";

Deno.test("offline assignment: share of content words with a partial band", async () => {
  const b = offlineNuggetBackend();
  const [w] = await b.assign([{
    query: "comets",
    answer: "Comet nuclei hold ice and dust. Rosetta visited a comet.",
    // content stems: [comet, nucleu, ice, dust] 3/4 ("nuclei" stems apart) | [rosetta, land, philae] 1/3 | [halley, return, 76, year] 0/4
    // | [ice, dust, organ, molecul] 2/4
    nuggets: [
      "comet nucleus ice dust",
      "Rosetta landed Philae",
      "Halley returns every 76 years",
      "ice dust organic molecules",
    ],
  }]);
  assert.equal(w.status, "ok");
  assert.deepEqual(w.value, ["support", "not_support", "not_support", "partial_support"]);
  assert.match(w.raw, /^offline: content words found \[0\.75,0\.333,0,0\.5\]$/);
  assert.equal(b.judge, "lexical-nuggets");
  assert.equal(b.offline, true);
});

Deno.test("offline importance: vital when enough passages hold the nugget", async () => {
  const passages = [
    "The bridge opened in 1932 after eight years of work.",
    "Officials said the bridge opened in 1932.",
    "Tolls were removed in 1970.",
    "Crowds crossed on the first day.",
  ];
  const [w] = await offlineNuggetBackend().label([{
    query: "bridge",
    nuggets: ["bridge opened in 1932", "tolls removed in 1970"],
    passages,
  }]);
  assert.deepEqual(w.value, ["vital", "okay"]);
  assert.equal(w.raw, "offline: passages holding each nugget [2,1] of 4");
});

Deno.test("offline creation: salient clauses up to the limit, redundant ones skipped, list kept", async () => {
  const b = offlineNuggetBackend();
  const out = await b.create({
    query: "Why did the bridge close?",
    nuggets: ["Bridge closed for repairs"],
    passages: [
      "The bridge closed for repairs in May; engineers found cracks in two cables.",
      "Engineers found cracks in the cables during an inspection. Traffic moved to the ferry.",
    ],
    maxNuggets: 3,
  });
  assert.equal(out.status, "ok");
  assert.equal(out.value!.length, 3);
  assert.equal(out.value![0], "Bridge closed for repairs"); // the running list keeps its order
  assert.ok(
    !out.value!.slice(1).some((n) => /closed for repairs/.test(n)),
    "redundant clause skipped",
  );
  assert.ok(out.value!.every((n) => n.split(" ").length <= 12));
  assert.match(out.raw, /^offline: 2 salient clauses added$/);
});
