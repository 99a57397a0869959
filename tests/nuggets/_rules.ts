// Chat rules of the nugget tests and benchmark (loadable by the worker test server).

/** Answers an assignment or importance prompt with one label per nugget, cycling by position. */
export function nuggetLabelRule(req: { messages: { content: string }[] }): { content: string } {
  const u = req.messages[req.messages.length - 1].content;
  const m = /Nuggets \(JSON\):\n([\s\S]*?)\n\nFor each/.exec(u);
  const n = m ? (JSON.parse(m[1]) as unknown[]).length : 0;
  const labels = u.includes("\nText:\n")
    ? ["support", "partial_support", "not_support"]
    : ["vital", "okay"];
  return {
    content: JSON.stringify(Array.from({ length: n }, (_, i) => labels[i % labels.length])),
  };
}
