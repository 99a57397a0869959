/**
 * A loopback server that speaks the OpenAI HTTP protocol, for tests and
 * benchmarks of every model-driven path. It serves `POST /v1/chat/completions`,
 * `POST /v1/embeddings`, `POST /v1/rerank`, `POST /v1/score` and
 * `GET /v1/models` on 127.0.0.1 with an ephemeral port.
 *
 * Answers come from a rule: a function from the request (and how many times the
 * same request key was seen) to a {@link Reply}. A reply is either a chat answer,
 * an HTTP error (optionally with `Retry-After`), a dropped connection (the body
 * stream breaks after the headers), or a malformed (non-JSON) body. A request with
 * `logprobs: true` gets the answer's tokens with their log-probabilities and
 * `top_logprobs` alternatives (scripted by the reply, or one token per word), unless
 * the server was started with `logprobs: false`. Every request is counted per key,
 * so tests can check that a request was never repeated.
 *
 * ```ts
 * import { startOpenAiServer } from "../support/openai_server.ts";
 * await using server = startOpenAiServer({
 *   latencyMs: 50,
 *   chat: (req, { count }) => count === 1 ? { status: 429, retryAfter: 0.01 } : { content: "4" },
 * });
 * // point the client at server.url (it ends in /v1) ...
 * server.countFor("Question: ...");  // requests seen for that key
 * ```
 *
 * @module
 */

/** A chat message as sent by the client. */
export interface ServerMessage {
  role: string;
  content: string;
}

/** The parsed body of a chat completion request. */
export interface ServerChatRequest {
  model: string;
  messages: ServerMessage[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  seed?: number;
  stop?: string | string[];
  [other: string]: unknown;
}

/** One scripted generated token with its log-probability and the alternatives at its position. */
export interface ScriptedToken {
  token: string;
  logprob: number;
  /** Alternatives, most likely first; the server sends the first `top_logprobs` of them. */
  top?: { token: string; logprob: number }[];
}

/** What the server does with one request. */
export type Reply =
  /**
   * A successful chat answer (`null`: a message without content); usage is estimated
   * from lengths unless given. `logprobs` scripts the tokens' log-probabilities sent
   * when the request asks for them (`logprobs: true`); without it, the content is cut
   * into word and punctuation tokens, each with log-probability 0 and itself as the
   * only alternative.
   */
  | {
    content: string | null;
    delayMs?: number;
    usage?: { prompt_tokens: number; completion_tokens: number };
    logprobs?: ScriptedToken[];
  }
  /** An HTTP error; `retryAfter` (seconds) sets the `Retry-After` header. */
  | { status: number; retryAfter?: number; message?: string; delayMs?: number }
  /** Sends the status line and headers, then breaks the connection. */
  | { drop: true; delayMs?: number }
  /** A 200 response whose body is not JSON. */
  | { malformedBody: string; delayMs?: number };

/** What a rule learns about the request besides its body. */
export interface RequestInfo {
  /** The request key (see {@link ServerOptions.keyOf}). */
  key: string;
  /** How many requests with this key arrived so far, this one included (from 1). */
  count: number;
  /** The `Authorization` header as received. */
  authorization: string | null;
}

/** Options of {@link startOpenAiServer}. */
export interface ServerOptions {
  /** Rule for chat completions. Default: answers `"ok"`. */
  chat?: (request: ServerChatRequest, info: RequestInfo) => Reply | Promise<Reply>;
  /** Embedding of one input text. Default: 8 numbers derived from character codes. */
  embed?: (text: string, model: string) => number[];
  /** Score of (query, document) for `/v1/rerank` and `/v1/score`. Default: shared-word ratio. */
  score?: (query: string, document: string) => number;
  /**
   * Latency of every reply, in ms, unless the reply sets `delayMs`: the reply is sent this
   * long after the request arrived (or at once, if reading it took longer). Default 0.
   */
  latencyMs?: number;
  /** Request key used for counting. Default: the content of the last message. */
  keyOf?: (request: ServerChatRequest) => string;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /**
   * `false`: an endpoint without log-probability support, whose answers never carry
   * `logprobs` (the request's `logprobs` is ignored). Default `true`.
   */
  logprobs?: boolean;
}

/** One request as the server saw it. */
export interface LoggedRequest {
  path: string;
  key: string;
  /** HTTP status sent (0 for a dropped connection). */
  status: number;
  /** Milliseconds since the server started, when the reply was sent. */
  at: number;
  /** `true` when a successful chat answer was sent. */
  answered: boolean;
}

/** A running test server. */
export interface OpenAiTestServer extends AsyncDisposable {
  /** Base URL for OpenAI clients, e.g. `http://127.0.0.1:43121/v1`. */
  url: string;
  port: number;
  /** Requests received so far (all paths). */
  readonly requests: number;
  /** Requests per key (chat requests only). */
  readonly counts: ReadonlyMap<string, number>;
  /** Requests received with the given key. */
  countFor(key: string): number;
  /** Every request, in arrival order. */
  readonly log: readonly LoggedRequest[];
  /** The most chat requests open at once so far (arrived, not yet answered). */
  readonly peakInFlight: number;
  /** Sets counters and log back to zero. */
  reset(): void;
  /** Stops the server and waits for open requests to finish. */
  close(): Promise<void>;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

function defaultEmbed(text: string): number[] {
  const v = new Array(8).fill(0);
  for (let i = 0; i < text.length; i++) v[i % 8] += text.charCodeAt(i) / 1000;
  return v;
}

function defaultScore(query: string, doc: string): number {
  const q = new Set(query.toLowerCase().split(/\W+/).filter(Boolean));
  const d = new Set(doc.toLowerCase().split(/\W+/).filter(Boolean));
  let shared = 0;
  for (const w of q) if (d.has(w)) shared++;
  return q.size ? shared / q.size : 0;
}

/** Whether a UTF-16 code is white space as the regular expression `\s` sees it. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 ||
    c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * Number of words (runs of non-space characters), counted without allocating:
 * the prompt of every request is counted, and prompts run to thousands of words.
 */
export function words(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/** The `choices[0].logprobs` of an answer to a request asking `top_logprobs` alternatives. */
function logprobsOf(content: string, scripted: ScriptedToken[] | undefined, topK: number) {
  const tokens = scripted ??
    (content.match(/\s*[A-Za-z0-9]+|\s*[^\sA-Za-z0-9]/g) ?? []).map((token) => ({
      token,
      logprob: 0,
      top: [{ token, logprob: 0 }],
    }));
  const bytes = (t: string) => [...new TextEncoder().encode(t)];
  return {
    content: tokens.map((t) => ({
      token: t.token,
      logprob: t.logprob,
      bytes: bytes(t.token),
      top_logprobs: (t.top ?? []).slice(0, topK).map((a) => ({
        token: a.token,
        logprob: a.logprob,
        bytes: bytes(a.token),
      })),
    })),
  };
}

/**
 * Starts the server on 127.0.0.1 with an ephemeral port.
 *
 * @param opts Rules, latency and authentication; see {@link ServerOptions}.
 * @returns The running server; `await server.close()` (or `await using`) stops it.
 */
export function startOpenAiServer(opts: ServerOptions = {}): OpenAiTestServer {
  const counts = new Map<string, number>();
  const log: LoggedRequest[] = [];
  let requests = 0;
  let inFlight = 0;
  let peakInFlight = 0;
  const started = performance.now();
  const keyOf = opts.keyOf ?? ((r: ServerChatRequest) => r.messages.at(-1)?.content ?? "");

  // A reply's latency counts from the request's arrival, as a model service's does:
  // reading and parsing the body and the rule's work are part of it, not added to it.
  const wait = (ms: number, arrived: number) => {
    const left = arrived + ms - performance.now();
    return left <= 0 ? Promise.resolve() : new Promise<void>((r) => setTimeout(r, left));
  };

  const record = (path: string, key: string, status: number, answered = false) =>
    log.push({ path, key, status, at: performance.now() - started, answered });

  async function chat(req: Request, arrived: number): Promise<Response> {
    const body = await req.json() as ServerChatRequest;
    const key = keyOf(body);
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    const rule = opts.chat ?? ((): Reply => ({ content: "ok" }));
    const reply = await rule(body, { key, count, authorization: req.headers.get("authorization") });
    await wait(reply.delayMs ?? opts.latencyMs ?? 0, arrived);
    if ("drop" in reply) {
      record("/v1/chat/completions", key, 0);
      const broken = new ReadableStream({ start: (c) => c.error(new Error("connection dropped")) });
      return new Response(broken, { status: 200, headers: { "content-type": "application/json" } });
    }
    if ("malformedBody" in reply) {
      record("/v1/chat/completions", key, 200);
      return new Response(reply.malformedBody, { headers: { "content-type": "application/json" } });
    }
    if ("status" in reply) {
      record("/v1/chat/completions", key, reply.status);
      const headers: Record<string, string> = {};
      if (reply.retryAfter !== undefined) headers["retry-after"] = String(reply.retryAfter);
      const message = reply.message ?? `Scripted error ${reply.status}`;
      return json({ error: { message, type: "server_error", code: null } }, reply.status, headers);
    }
    record("/v1/chat/completions", key, 200, true);
    // Words are counted only when the rule gives no usage (a prompt runs to
    // thousands of words, and the server shares the cores with the client).
    const usage = reply.usage ?? {
      prompt_tokens: body.messages.reduce((n, m) => n + words(m.content), 0),
      completion_tokens: words(reply.content ?? ""),
    };
    const asked = body.logprobs === true && opts.logprobs !== false;
    const topK = typeof body.top_logprobs === "number" ? body.top_logprobs : 0;
    return json({
      id: `chatcmpl-${requests}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{
        index: 0,
        message: { role: "assistant", content: reply.content },
        logprobs: asked ? logprobsOf(reply.content ?? "", reply.logprobs, topK) : null,
        finish_reason: "stop",
      }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
  }

  async function embeddings(req: Request, arrived: number): Promise<Response> {
    const body = await req.json() as { model: string; input: string | string[] };
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    await wait(opts.latencyMs ?? 0, arrived);
    record("/v1/embeddings", inputs.join("\n"), 200, true);
    const embed = opts.embed ?? defaultEmbed;
    return json({
      object: "list",
      model: body.model,
      data: inputs.map((t, index) => ({
        object: "embedding",
        index,
        embedding: embed(t, body.model),
      })),
      usage: { prompt_tokens: inputs.reduce((n, t) => n + words(t), 0), total_tokens: 0 },
    });
  }

  async function rerank(req: Request, path: string, arrived: number): Promise<Response> {
    const body = await req.json() as Record<string, unknown>;
    await wait(opts.latencyMs ?? 0, arrived);
    const score = opts.score ?? defaultScore;
    if (path === "/v1/score") {
      const q = String(body.text_1);
      const docs = Array.isArray(body.text_2) ? body.text_2.map(String) : [String(body.text_2)];
      record(path, q, 200, true);
      return json({
        object: "list",
        data: docs.map((d, index) => ({ index, object: "score", score: score(q, d) })),
      });
    }
    const q = String(body.query);
    const docs = (body.documents as string[]).map(String);
    record(path, q, 200, true);
    const results = docs.map((d, index) => ({ index, relevance_score: score(q, d) }))
      .sort((a, b) => b.relevance_score - a.relevance_score)
      .slice(0, typeof body.top_n === "number" ? body.top_n : docs.length);
    return json({ id: "rerank", results });
  }

  const server = Deno.serve(
    {
      hostname: "127.0.0.1",
      port: 0,
      onListen: () => {},
      // A scripted drop errors the body stream on purpose; keep it out of the test output.
      onError: () => new Response(null, { status: 500 }),
    },
    async (req) => {
      const arrived = performance.now();
      requests++;
      const path = new URL(req.url).pathname;
      if (
        opts.apiKey !== undefined && req.headers.get("authorization") !== `Bearer ${opts.apiKey}`
      ) {
        await req.body?.cancel();
        record(path, "", 401);
        return json({ error: { message: "Invalid API key", type: "auth" } }, 401);
      }
      if (req.method === "GET" && path === "/v1/models") {
        return json({
          object: "list",
          data: [{ id: "test-model", object: "model", owned_by: "test" }],
        });
      }
      if (req.method !== "POST") return json({ error: { message: "Not found" } }, 404);
      if (path === "/v1/chat/completions") {
        peakInFlight = Math.max(peakInFlight, ++inFlight);
        try {
          return await chat(req, arrived);
        } finally {
          inFlight--;
        }
      }
      if (path === "/v1/embeddings") return await embeddings(req, arrived);
      if (path === "/v1/rerank" || path === "/v1/score") return await rerank(req, path, arrived);
      await req.body?.cancel();
      return json({ error: { message: `No route ${path}` } }, 404);
    },
  );
  const port = server.addr.port;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    get requests() {
      return requests;
    },
    counts,
    countFor: (key) => counts.get(key) ?? 0,
    log,
    get peakInFlight() {
      return peakInFlight;
    },
    reset() {
      counts.clear();
      log.length = 0;
      requests = 0;
      peakInFlight = inFlight;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
