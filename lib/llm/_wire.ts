// Sampling parameters in their OpenAI wire names, undefined fields dropped.
import type { SamplingParams } from "./types.ts";

export function toWire(p: SamplingParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (p.temperature !== undefined) out.temperature = p.temperature;
  if (p.topP !== undefined) out.top_p = p.topP;
  if (p.maxTokens !== undefined) out.max_tokens = p.maxTokens;
  if (p.seed !== undefined) out.seed = p.seed;
  if (p.stop !== undefined && p.stop.length) out.stop = [...p.stop];
  return out;
}

export function fromWire(w: Record<string, unknown>): SamplingParams {
  const out: SamplingParams = {};
  if (typeof w.temperature === "number") out.temperature = w.temperature;
  if (typeof w.top_p === "number") out.topP = w.top_p;
  if (typeof w.max_tokens === "number") out.maxTokens = w.max_tokens;
  if (typeof w.seed === "number") out.seed = w.seed;
  if (Array.isArray(w.stop)) out.stop = w.stop.map(String);
  else if (typeof w.stop === "string") out.stop = [w.stop];
  return out;
}
