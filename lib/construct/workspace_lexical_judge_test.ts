import assert from "node:assert/strict";
import { openWorkspace } from "@lib/store/mod.ts";
import { workspaceLexicalJudge } from "./workspace_lexical_judge.ts";

Deno.test("workspaceLexicalJudge rates a pair the same whatever else is judged with it", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await ws.insert("passages", [
      { passageId: "t:0#0", topicId: "t", docId: "t:0", text: "The ferry sank near the harbour." },
      { passageId: "t:0#1", topicId: "t", docId: "t:0", text: "The council met on Monday." },
      { passageId: "t:1#2", topicId: "t", docId: "t:1", text: "Rescue boats reached the ferry." },
    ]);
    const judge = workspaceLexicalJudge(ws);
    assert.equal(judge.name, "lexical");
    const pair = { id: "a", question: "Where did the ferry sink?", context: "The ferry sank." };
    const other = { id: "b", question: "When did the council meet?", context: "The ferry sank." };
    const [alone] = await judge.rate([pair]);
    const [together] = await judge.rate([pair, other]);
    assert.equal(alone.rating, together.rating);
    assert.equal(alone.raw, together.raw); // the same overlap score to four decimals
    // Question terms: where, did, ferri, sink (only 33 stop words; "did" is not one).
    // IDF over the 3 passages: "ferri" df 2 -> ln(1 + 1.5/2.5) = 0.4700; the others df 0 ->
    // ln(1 + 3.5/0.5) = 2.0794 each. Only "ferri" is in the context ("sank" != "sink"):
    // 0.4700 / (0.4700 + 3 x 2.0794) = 0.0701 -> rating 0.
    assert.equal(alone.raw, "0.0701");
    assert.equal(alone.rating, 0);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
