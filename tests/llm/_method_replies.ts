/**
 * Test helper: one chat rule that answers every model prompt of the workbench
 * (the CRUX chain through {@link fakeReply}, nugget creation, importance and
 * assignment, key point extraction, merging, entailment and support, sub-question
 * decomposition, typing, coverage, composition and pairwise judging) with a
 * deterministic reply computed from the prompt alone, so an online run and a
 * batch answered by the same rule store the same rows.
 */
import type { Reply, ServerChatRequest } from "../support/openai_server.ts";
import { fakeReply, promptKind } from "../support/fake_model.ts";

const between = (s: string, a: string, b: string) => {
  const i = s.lastIndexOf(a);
  if (i < 0) return "";
  const j = s.indexOf(b, i + a.length);
  return s.slice(i + a.length, j < 0 ? undefined : j);
};
const sentences = (text: string) =>
  text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{4,}/g) ?? []);
/** Share of `a`'s longer words that occur in `b`. */
const overlap = (a: string, b: string) => {
  const wa = [...words(a)];
  const wb = words(b);
  return wa.length ? wa.filter((w) => wb.has(w)).length / wa.length : 0;
};
/** A small stable number from a text (to vary labels without randomness). */
const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

/** The reply of the rule to one chat request. */
export function methodReply(req: ServerChatRequest): Reply {
  const u = req.messages.at(-1)?.content ?? "";
  const json = (v: unknown): Reply => ({ content: JSON.stringify(v) });
  if (u.includes("Current nugget list (JSON):")) {
    const list = JSON.parse(between(u, "Current nugget list (JSON):\n", "\n\nNew passages:"));
    const max = Number(/keep at most (\d+)\s+nuggets/.exec(u)?.[1] ?? 20);
    const shown = between(u, "New passages:\n", "\n\nQuery (repeated)").split("\n\n");
    const added = shown.map((p) =>
      (sentences(p.replace(/^\[\d+\]\s*/, ""))[0] ?? "").split(/\s+/).slice(0, 8).join(" ")
        .replace(/[.,;:!?]$/, "")
    ).filter(Boolean);
    return json([...new Set([...list, ...added])].slice(0, max));
  }
  if (u.includes("Nuggets (JSON):")) {
    const nuggets = JSON.parse(between(u, "Nuggets (JSON):\n", "\n\nFor each")) as string[];
    if (!u.includes("\nText:\n")) return json(nuggets.map((n) => hash(n) % 3 ? "okay" : "vital"));
    const text = between(u, "\nText:\n", "\n\nNuggets (JSON):");
    return json(nuggets.map((n) => {
      const s = overlap(n, text);
      return s >= 0.75 ? "support" : s >= 0.4 ? "partial_support" : "not_support";
    }));
  }
  if (u.includes("Points already extracted")) {
    const doc = between(u, "\nDocument:\n", "\n\nPoints already extracted");
    const found = between(u, "(do not repeat them):\n", "\n\nList the key points").trim();
    // Round 1 finds the document's first two sentences; round 2 finds nothing more.
    if (found !== "(none yet)") return json([]);
    return json(sentences(doc).slice(0, 2).map((s) => ({ point: s, spans: [s] })));
  }
  if (u.includes("Numbered key points from several documents:")) {
    const points = between(u, "several documents:\n", "\n\nMerge points").split("\n")
      .map((l) => l.replace(/^\d+\.\s*/, ""));
    // Points sharing most words merge into the first of them.
    const groups: { point: string; sources: number[] }[] = [];
    points.forEach((p, i) => {
      const g = groups.find((x) => overlap(p, x.point) >= 0.8);
      if (g) g.sources.push(i + 1);
      else groups.push({ point: p, sources: [i + 1] });
    });
    return json(groups);
  }
  if (u.startsWith("Key point:")) {
    const point = between(u, "Key point: ", "\n");
    const s = overlap(point, between(u, "Response:\n", "\n\nDecide"));
    return json({
      label: s >= 0.6 ? "yes" : s >= 0.3 ? "neutral" : "no",
      reason: "overlap",
      snippet: "",
    });
  }
  if (u.includes("\nStatement: ")) {
    const s = overlap(between(u, "\nStatement: ", "\n"), between(u, "=====):\n", "\n\nStatement:"));
    return json({ label: s >= 0.6 ? "yes" : "no", reason: "overlap", snippet: "" });
  }
  if (u.startsWith("Complex question:")) {
    const q = between(u, "Complex question: ", "\n").replace(/[?.]$/, "");
    return json([
      `What happened in ${q}?`,
      `Who is affected by ${q}?`,
      `What is planned next about ${q}?`,
      `What is the history of ${q}?`,
    ]);
  }
  if (u.includes("Which type is this sub-question?")) {
    const sub = between(u, "Sub-question: ", "\n");
    return {
      content: /planned next/.test(sub) ? "follow-up" : /history/.test(sub) ? "background" : "core",
    };
  }
  if (u.includes("Does the text answer the question?")) {
    const text = between(u, "Text:\n", "\n\nDoes the text");
    const q = between(u, "Question: ", "\n");
    const first = sentences(text).find((s) => overlap(q, s) > 0) ?? "";
    return json(first ? { label: "answered", span: first } : { label: "unanswered", span: "" });
  }
  if (u.includes("\nAnswer 1:\n")) {
    const a = between(u, "Answer 1:\n", "\n\nAnswer 2:").trim();
    const b = between(u, "Answer 2:\n", "\n\nDecide").trim();
    // The longer answer wins, whatever the order shown.
    return json({ better: a.length === b.length ? "tie" : a.length > b.length ? "1" : "2" });
  }
  if (u.includes("Notes (each answers one sub-question")) {
    return { content: between(u, "sub-question of the request):\n", "\n\nWrite one").trim() };
  }
  if (u.includes("Answer the question using as many of the important points")) {
    return { content: sentences(between(u, "=====):\n", "\n\nQuestion:")).slice(0, 3).join(" ") };
  }
  return { content: fakeReply(req) };
}

/** The prompt a chat request was rendered from, by the markers of its text. */
export function promptOf(req: ServerChatRequest): string {
  const u = req.messages.at(-1)?.content ?? "";
  if (u.includes("\nText:\n") && u.includes("Nuggets (JSON):")) return "nugget_assign";
  const marks: [string, string][] = [
    ["Current nugget list (JSON):", "nugget_create"],
    ["Nuggets (JSON):", "nugget_importance"],
    ["Points already extracted", "keypoint_extract"],
    ["Numbered key points from several documents:", "keypoint_merge"],
    ["Key point:", "keypoint_entail"],
    ["\nStatement: ", "keypoint_support"],
    ["Complex question:", "subq_decompose"],
    ["Which type is this sub-question?", "subq_type"],
    ["Does the text answer the question?", "subq_coverage"],
    ["\nAnswer 1:\n", "subq_pairwise"],
    ["Notes (each answers one sub-question", "subq_compose"],
    ["Answer the question using as many of the important points", "keypoint_response"],
  ];
  for (const [mark, name] of marks) if (u.includes(mark)) return name;
  return `crux:${promptKind(req)}`;
}
