/**
 * Test helper: rule-based replies that look like real model output for every
 * CRUX prompt (passages in `<p>`, a request in `<r>`, questions in `<q>`, a
 * rating digit, a report), for the OpenAI-protocol test server. The prompt kind
 * is recognised from the rendered template text.
 */
import type { ServerChatRequest } from "./openai_server.ts";

/** Which CRUX prompt a request was rendered from. */
export type PromptKind = "passages" | "request" | "questions" | "rating" | "report" | "unknown";

/** Recognises the prompt kind of a chat request. */
export function promptKind(req: ServerChatRequest): PromptKind {
  const all = req.messages.map((m) => m.content).join("\n");
  if (/<p>/.test(all) && /\nDocument:\n/.test(all)) return "passages";
  if (/<r>/.test(all)) return "request";
  if (/<q>/.test(all)) return "questions";
  if (/single digit|0 to 5|0, 1, 2, 3, 4 or 5/.test(all)) return "rating";
  if (/Report:\s*$/.test(req.messages.at(-1)?.content ?? "")) return "report";
  return "unknown";
}

const after = (text: string, marker: string) => {
  const i = text.lastIndexOf(marker);
  return i < 0 ? "" : text.slice(i + marker.length).trim();
};
const sentences = (text: string) =>
  text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{4,}/g) ?? []);

/** A plausible reply for a CRUX prompt. */
export function fakeReply(req: ServerChatRequest): string {
  const user = req.messages.at(-1)?.content ?? "";
  switch (promptKind(req)) {
    case "passages": {
      const s = sentences(after(user, "Document:\n"));
      const half = Math.ceil(s.length / 2);
      return `Here are the passages.\n<p>${s.slice(0, half).join(" ")}</p>\n<p>${
        s.slice(half).join(" ")
      }</p>`;
    }
    case "request": {
      const first = sentences(after(user, "Report:\n").split("\n\nWrite the request")[0])[0] ?? "";
      return `<r>I would like a report about this: ${first} Explain causes, consequences and reactions.</r>`;
    }
    case "questions": {
      const n = Number(/write (\d+) questions/i.exec(user)?.[1] ?? 5);
      const s = sentences(after(user, "Report:\n")).slice(0, n);
      return s.map((x, i) => `<q>${i + 1}. What is reported about ${x.replace(/[.!?]$/, "")}?</q>`)
        .join("\n");
    }
    case "rating": {
      const q = /Question: (.*)\n/.exec(user)?.[1] ?? "";
      const context = words(after(user, "Context:\n"));
      const qw = [...words(q)].filter((w) => !["what", "reported", "about"].includes(w));
      const share = qw.length ? qw.filter((w) => context.has(w)).length / qw.length : 0;
      return String(Math.min(5, Math.floor(share * 6)));
    }
    case "report": {
      const sources = after(user, "Sources:\n").split("\n\nReport:")[0];
      const body = sources
        ? sentences(sources.replace(/\[\d+\] /g, "")).slice(0, 3).join(" ")
        : "Nothing is known.";
      return `${body}`;
    }
    default:
      return "ok";
  }
}
