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
