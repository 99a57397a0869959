// The HTTP edge: chat, rerank and score requests through `post` (the lean
// HTTP/1.1 client for plain http: endpoints, fetch otherwise), embeddings through
// the `openai` client. Every failure becomes a TransportError that says whether
// it is worth retrying; user aborts are rethrown as they are.
import {
  MAX_REDIRECT_HOPS,
  sameOriginRedirects,
  sameOriginTarget,
  tooManyRedirects,
} from "./_redirects.ts";
import { http1Request } from "./_http1.ts";
import { reportedUsage } from "./_usage.ts";
import OpenAI from "openai";
import type { TokenLogprob, Usage } from "./types.ts";
import { readLogprobs } from "./_logprobs.ts";
import { isRetryableStatus, redact, retryAfterMs, TransportError } from "./_retry.ts";

export interface SendOptions {
  signal?: AbortSignal;
  timeoutMs: number;
}

export interface ChatAnswer {
  text: string;
  usage: Usage;
  /** The first tokens' log-probabilities when the body asked for them (`null`: none returned). */
  logprobs?: TokenLogprob[] | null;
}

export interface Transport {
  /** Base URL without credentials, for the trace. */
  readonly baseUrl: string;
  chat(body: Record<string, unknown>, opts: SendOptions): Promise<ChatAnswer>;
  embed(
    body: { model: string; input: string[] },
    opts: SendOptions,
  ): Promise<{ vectors: number[][]; usage: Usage }>;
  post(path: string, body: Record<string, unknown>, opts: SendOptions): Promise<unknown>;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  fetch?: typeof fetch;
  /** Follow redirects to other origins too. Default false: only same-origin redirects. */
  followRedirects?: boolean;
}

/** Strips user info, query and fragment from a URL for logs and traces. */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.href.replace(/\/$/, "");
  } catch {
    return "(invalid URL)";
  }
}

/**
 * Turns any failure of a request to `url` into a TransportError naming the full
 * URL (credentials, query and fragment stripped; the key redacted).
 */
function fail(
  error: unknown,
  secret: string | undefined,
  url: string,
  signal?: AbortSignal,
  timeoutMs?: number,
): never {
  if (signal?.aborted) throw signal.reason;
  if (error instanceof TransportError) throw error;
  const where = publicUrl(url);
  const after = timeoutMs === undefined ? "" : ` after ${timeoutMs} ms`;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    throw new TransportError({ retryable: true, message: `Request to ${where} timed out${after}` });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : "";
    throw new TransportError({
      retryable: true,
      message: redact(`Connection to ${where} failed${detail}`, secret),
    });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === "number") {
    throw new TransportError({
      retryable: isRetryableStatus(error.status),
      status: error.status,
      retryAfterMs: retryAfterMs(error.headers),
      message: redact(`HTTP ${error.status} from ${where}: ${error.message}`, secret),
    });
  }
  // A refused or dropped connection (fetch's TypeError) or a broken body (non-JSON
  // answer) is transient.
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const cause = error instanceof Error && error.cause instanceof Error
    ? `; ${error.cause.message}`
    : "";
  const text = error instanceof TypeError
    ? `Connection to ${where} failed (${message}${cause})`
    : `Bad response from ${where} (${message}${cause})`;
  throw new TransportError({
    retryable: true,
    message: redact(text.split(url).join(where), secret),
  });
}

/** `path` appended to the base URL's path; its query (e.g. `api-version`) is kept. */
function joinUrl(base: string, path: string): string {
  try {
    const u = new URL(base);
    u.pathname = u.pathname.replace(/\/$/, "") + path;
    return u.href;
  } catch {
    return `${base.replace(/\/$/, "")}${path}`;
  }
}

/** The `error.message` of an OpenAI-style error body, else the body's start. */
function errorText(body: string): string {
  try {
    const message = JSON.parse(body)?.error?.message;
    if (typeof message === "string") return message.slice(0, 300);
  } catch {
    // not JSON
  }
  return body.slice(0, 200);
}

const usageOf = (u: unknown): Usage => reportedUsage(u);

/** Whether a proxy is configured for plain HTTP (then `fetch`, which honours it, sends). */
function httpProxyConfigured(): boolean {
  try {
    return ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"].some((name) =>
      (Deno.env.get(name) ?? "") !== ""
    );
  } catch {
    return false; // no permission to read the environment: fetch could not read it either
  }
}

/** The fields as `Headers`; a field `Headers` refuses (a malformed name) is left out. */
function headersOf(fields: Record<string, string>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(fields)) {
    try {
      out.append(name, value);
    } catch {
      // not a valid field: no header the transport reads
    }
  }
  return out;
}

/** A finished response as `post` needs it, from either HTTP path. */
interface Answer {
  status: number;
  text: string;
  headers: () => Headers;
}

/** Builds the transport for one endpoint. The key is held only by the client object. */
export function openAiTransport(opts: TransportOptions): Transport {
  const fetcher = sameOriginRedirects(opts.fetch ?? fetch, opts.followRedirects ?? false);
  const client = new OpenAI({
    baseURL: opts.baseUrl,
    apiKey: opts.apiKey || "none",
    maxRetries: 0,
    fetch: fetcher,
  });
  const secret = opts.apiKey;
  // Plain http: endpoints without a proxy, an injected fetch or open redirects
  // go through the lean HTTP/1.1 client (about a third less CPU per call than fetch).
  const leanAllowed = !opts.fetch && !opts.followRedirects && !httpProxyConfigured();
  const leanUrls = new Map<string, URL | null>();
  const lean = (url: string): URL | null => {
    if (!leanAllowed) return null;
    let u = leanUrls.get(url);
    if (u === undefined) {
      try {
        u = new URL(url);
        // fetch refuses URLs with credentials: keep that behaviour.
        if (u.protocol !== "http:" || u.username || u.password) u = null;
      } catch {
        u = null;
      }
      leanUrls.set(url, u);
    }
    return u;
  };
  const fetchPost = async (
    url: string,
    init: RequestInit,
    signal: AbortSignal,
  ): Promise<Answer> => {
    const res = await fetcher(url, { ...init, signal });
    const text = await res.text();
    return { status: res.status, text, headers: () => res.headers };
  };
  /**
   * Sends through the lean client where `lean` allows it, with the same-origin
   * redirect policy of `sameOriginRedirects`, and through `fetch` otherwise.
   */
  const send = async (
    url: string,
    init: { method: string; headers: Record<string, string>; body: string },
    signal: AbortSignal,
  ): Promise<Answer> => {
    let target = url;
    for (let hop = 0; hop <= MAX_REDIRECT_HOPS; hop++) {
      const u = lean(target);
      if (u === null) return fetchPost(target, init, signal);
      const res = await http1Request(u, { ...init, signal });
      const next = sameOriginTarget(res.status, res.headers.location ?? null, target);
      if (next === null) {
        return { status: res.status, text: res.text, headers: () => headersOf(res.headers) };
      }
      target = next;
    }
    throw tooManyRedirects(target);
  };
  const transport: Transport = {
    baseUrl: publicUrl(opts.baseUrl),
    async chat(body, opts) {
      // Plain fetch: the openai client costs ~2-3 ms of CPU per call, which is
      // 5% of throughput at 160 calls/s. Errors are classified the same way.
      const url = `${transport.baseUrl}/chat/completions`;
      const res = await this.post("/chat/completions", body, opts) as {
        choices?: { message?: { content?: string | null } }[];
        usage?: { prompt_tokens?: number; completion_tokens?: number };
      };
      const choice = res?.choices?.[0];
      if (!choice) {
        throw new TransportError({
          retryable: true,
          message: `Bad response from ${publicUrl(url)} (no choices in the answer)`,
        });
      }
      const answer: ChatAnswer = { text: choice.message?.content ?? "", usage: usageOf(res.usage) };
      if (body.logprobs === true) answer.logprobs = readLogprobs(choice);
      return answer;
    },
    async embed(body, { signal, timeoutMs }) {
      try {
        const res = await client.embeddings.create({ ...body, encoding_format: "float" }, {
          signal,
          timeout: timeoutMs,
        });
        const vectors = [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
        if (vectors.length !== body.input.length) {
          throw new Error(`expected ${body.input.length} embeddings, got ${vectors.length}`);
        }
        return { vectors, usage: usageOf(res.usage) };
      } catch (error) {
        fail(error, secret, joinUrl(opts.baseUrl, "/embeddings"), signal, timeoutMs);
      }
    },
    async post(path, body, { signal, timeoutMs }) {
      // An already aborted signal never fires "abort": stop before sending.
      signal?.throwIfAborted();
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      const timer = setTimeout(() => controller.abort(new Error("timeout")), timeoutMs);
      const url = joinUrl(opts.baseUrl, path);
      try {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (secret) headers.authorization = `Bearer ${secret}`;
        const init = { method: "POST", headers, body: JSON.stringify(body) };
        const res = await send(url, init, controller.signal);
        const text = res.text;
        if (res.status < 200 || res.status >= 300) {
          throw new TransportError({
            retryable: isRetryableStatus(res.status),
            status: res.status,
            retryAfterMs: retryAfterMs(res.headers()),
            message: redact(
              `HTTP ${res.status} from ${publicUrl(url)}: ${errorText(text)}`,
              secret,
            ),
          });
        }
        return JSON.parse(text);
      } catch (error) {
        if (controller.signal.aborted && !signal?.aborted) {
          const message = `Request to ${publicUrl(url)} timed out after ${timeoutMs} ms`;
          fail(new TransportError({ retryable: true, message }), secret, url);
        }
        fail(error, secret, url, signal);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
    },
  };
  return transport;
}
