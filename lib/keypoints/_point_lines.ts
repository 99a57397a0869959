/**
 * Long2RAG's own output format: numbered lines `Point 1: ...`, each maybe
 * followed by lines that belong to it.
 *
 * @module
 */
import { finalAnswer, plainAnswer } from "@lib/llm/mod.ts";

/** One `Point N: text` line and the lines after it up to the next point. */
export interface PointLine {
  number: number;
  text: string;
  more: string[];
}

/** `Point 1: ...`, `Key point 2 - ...`, `**Point 3.** ...`. */
const POINT = /^(?:key\s+)?point\s*#?\s*(\d+)\s*[:.)-]\s*(.*)$/i;

/**
 * The `Point N:` lines of an answer's final part (reasoning removed, markdown
 * emphasis dropped); undefined when it has none. Lines before the first point
 * (an introduction) are passed over.
 */
export function pointLines(text: string): PointLine[] | undefined {
  const out: PointLine[] = [];
  for (const line of plainAnswer(finalAnswer(text)).split("\n")) {
    const m = POINT.exec(line.trim());
    if (m) out.push({ number: Number(m[1]), text: m[2].trim(), more: [] });
    else if (out.length && line.trim()) out[out.length - 1].more.push(line.trim());
  }
  return out.length ? out : undefined;
}
