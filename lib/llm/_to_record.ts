// Turns a stored call into the record the client returns.
import type { StoredCall } from "./call_cache.ts";
import type { CallRecord, ParseResult } from "./types.ts";

export function toRecord<T>(
  call: StoredCall,
  extra: { id?: string; cached: boolean; parsed?: ParseResult<T> },
): CallRecord<T> {
  const rec: CallRecord<T> = {
    key: call.key,
    status: call.status === "failed" ? "failed" : "ok",
    text: call.response,
    model: call.model,
    usage: call.usage,
    latencyMs: call.latencyMs,
    attempts: call.attempts,
    cached: extra.cached,
  };
  if (extra.id !== undefined) rec.id = extra.id;
  if (call.template !== undefined) rec.template = call.template;
  if (call.status === "failed") rec.error = call.error;
  if (extra.parsed) rec.parsed = extra.parsed;
  if (call.logprobs && call.status !== "failed") rec.logprobs = call.logprobs.tokens;
  return rec;
}
