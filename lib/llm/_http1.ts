// A lean HTTP/1.1 keep-alive client for plain `http:` model endpoints; private
// to `@lib/llm`. It costs about a third less CPU per request than `fetch` (no
// Request, Headers or stream objects), and the main thread's CPU is what bounds a
// process that keeps dozens of model calls in flight.
import { type Bytes, concatBytes, ResponseReader } from "./_http1_reader.ts";

/** A request for {@link http1Request}. */
export interface Http1Request {
  method: string;
  /** Header fields besides `host`, `content-length` and `connection`, which are set here. */
  headers: Record<string, string>;
  /** The body, sent as UTF-8. */
  body?: string;
  /** Aborting closes the connection and rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A response read by {@link http1Request}. */
export interface Http1Response {
  status: number;
  /** Lowercased name to value; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body decoded as UTF-8 (invalid bytes replaced, as `Response.text()` does). */
  text: string;
}

/** The largest response body accepted, before and after content decoding. */
export const HTTP1_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** How long a pooled connection may wait unused before it is closed. */
export const HTTP1_IDLE_MS = 4_000;

interface Connection {
  tcp: Deno.TcpConn;
  key: string;
  /** The read started when the connection went idle; it reports a close by the server. */
  idleRead: Promise<Bytes | null> | null;
  idleSince: number;
  readSize: number;
  closed: boolean;
}

const encoder = new TextEncoder();
const NON_ASCII = /[\u0080-\uffff]/;
const decoder = new TextDecoder();
const idle = new Map<string, Connection[]>();
let sweepTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Sends one request over a pooled keep-alive connection to the URL's origin and
 * reads the whole response. Idle connections are reused last-in first-out,
 * closed after {@link HTTP1_IDLE_MS} unused or as soon as the server closes
 * them, and never keep the process alive. A pooled connection that fails before
 * any byte of the answer (the server closed it while idle) is replaced by a new
 * one once; a response that broke after its first byte is never sent again.
 *
 * @param url An `http:` URL (no proxy, no redirects followed: the caller decides).
 * @param req Method, headers, body and abort signal.
 * @returns The status, the lowercased headers and the body as text.
 * @throws {TypeError} when the connection fails or breaks (as `fetch` does), with the cause.
 * @throws {Error} on a malformed response, an unsupported content coding, or a body
 *   over {@link HTTP1_MAX_RESPONSE_BYTES}.
 * @throws the signal's reason when it aborts.
 *
 * @example
 * ```ts ignore
 * const res = await http1Request(new URL("http://127.0.0.1:8000/v1/score"), {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: "{}",
 * });
 * res.status; // 200
 * ```
 */
export async function http1Request(url: URL, req: Http1Request): Promise<Http1Response> {
  const { signal } = req;
  signal?.throwIfAborted();
  if (url.protocol !== "http:") throw new TypeError(`Not an http: URL: ${url.href}`);
  const payload = encodeRequest(url, req);
  for (let attempt = 1;; attempt++) {
    const pooled = attempt === 1 ? takeIdle(url.host) : undefined;
    const conn = pooled ?? await connect(url, signal);
    const onAbort = () => close(conn);
    signal?.addEventListener("abort", onAbort, { once: true });
    const reader = new ResponseReader(() => readChunk(conn), HTTP1_MAX_RESPONSE_BYTES);
    try {
      await writeAll(conn.tcp, payload);
      const raw = await reader.response(req.method);
      const body = await decodeContent(raw.body, raw.headers["content-encoding"]);
      // Released only now: once back in the pool, another request may take it.
      if (raw.keepAlive && reader.leftover === 0) release(conn);
      else close(conn);
      return { status: raw.status, headers: raw.headers, text: decoder.decode(body) };
    } catch (error) {
      close(conn);
      if (signal?.aborted) throw signal.reason;
      if (pooled && reader.received === 0) continue;
      // A malformed or oversized answer (plain Error) is reported as it is; a
      // failing socket becomes fetch's kind of error.
      if (error instanceof TypeError || (error instanceof Error && error.constructor === Error)) {
        throw error;
      }
      throw new TypeError(`error reading a response from ${url.href}: ${describe(error)}`, {
        cause: error,
      });
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }
}

/** Closes every pooled idle connection (tests use it to start from an empty pool). */
export function http1CloseIdle(): void {
  for (const list of [...idle.values()]) for (const conn of [...list]) close(conn);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function encodeRequest(url: URL, req: Http1Request): Bytes {
  const body = req.body ?? "";
  let head = `${req.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(req.headers)) {
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) {
      throw new TypeError(`Header ${JSON.stringify(name)} has a line break in its name or value`);
    }
    head += `${name}: ${value}\r\n`;
  }
  // An ASCII body (JSON usually is) is as long in bytes as in characters: one encoding.
  if (!NON_ASCII.test(body)) {
    return encoder.encode(
      `${head}content-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`,
    );
  }
  const bytes = encoder.encode(body);
  head += `content-length: ${bytes.length}\r\nconnection: keep-alive\r\n\r\n`;
  return concatBytes([encoder.encode(head), bytes]);
}

async function connect(url: URL, signal?: AbortSignal): Promise<Connection> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(url.port || 80);
  const pending = Deno.connect({ hostname, port });
  let tcp: Deno.TcpConn;
  try {
    tcp = signal ? await abortable(pending, signal) : await pending;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new TypeError(`error sending request for url (${url.href}): ${describe(error)}`, {
      cause: error,
    });
  }
  tcp.setNoDelay(true);
  return { tcp, key: url.host, idleRead: null, idleSince: 0, readSize: 4096, closed: false };
}

/** The connection, or the signal's reason if it aborts first (a late connection is closed). */
function abortable(pending: Promise<Deno.TcpConn>, signal: AbortSignal): Promise<Deno.TcpConn> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then((tcp) => {
      signal.removeEventListener("abort", onAbort);
      if (signal.aborted) tcp.close();
      else resolve(tcp);
    }, (error) => {
      signal.removeEventListener("abort", onAbort);
      reject(error);
    });
  });
}

async function writeAll(tcp: Deno.TcpConn, bytes: Bytes): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await tcp.write(bytes.subarray(at));
}

/** The read started while idle if there is one, else a new read. */
function readChunk(conn: Connection): Promise<Bytes | null> {
  const pending = conn.idleRead;
  if (pending) {
    conn.idleRead = null;
    return pending;
  }
  return startRead(conn);
}

async function startRead(conn: Connection): Promise<Bytes | null> {
  const buf = new Uint8Array(conn.readSize);
  const n = await conn.tcp.read(buf);
  if (n === null) return null;
  // A full buffer suggests big answers: read more at a time from now on.
  if (n === buf.length && conn.readSize < 256 * 1024) conn.readSize *= 4;
  return buf.subarray(0, n);
}

function takeIdle(key: string): Connection | undefined {
  const list = idle.get(key);
  while (list?.length) {
    const conn = list.pop()!;
    if (conn.closed) continue;
    conn.tcp.ref();
    return conn;
  }
  return undefined;
}

/** Puts a connection back in the pool, watching it for a close by the server. */
function release(conn: Connection): void {
  conn.idleSince = Date.now();
  conn.tcp.unref();
  const read = startRead(conn);
  conn.idleRead = read;
  // Anything arriving while idle (an end, an error or stray bytes) retires the connection.
  const retire = () => {
    if (conn.idleRead === read) close(conn);
  };
  read.then(retire, retire);
  let list = idle.get(conn.key);
  if (!list) idle.set(conn.key, list = []);
  list.push(conn);
  if (sweepTimer === undefined) scheduleSweep();
}

function close(conn: Connection): void {
  if (conn.closed) return;
  conn.closed = true;
  conn.idleRead = null;
  try {
    conn.tcp.close();
  } catch {
    // already closed
  }
  const list = idle.get(conn.key);
  const at = list?.indexOf(conn) ?? -1;
  if (at >= 0) list!.splice(at, 1);
  if (list?.length === 0) idle.delete(conn.key);
  if (idle.size === 0 && sweepTimer !== undefined) {
    clearTimeout(sweepTimer);
    sweepTimer = undefined;
  }
}

function scheduleSweep(): void {
  const id = setTimeout(() => {
    sweepTimer = undefined;
    const cutoff = Date.now() - HTTP1_IDLE_MS;
    for (const list of [...idle.values()]) {
      for (const conn of [...list]) if (conn.idleSince <= cutoff) close(conn);
    }
    if (idle.size > 0) scheduleSweep();
  }, HTTP1_IDLE_MS / 2);
  Deno.unrefTimer(id);
  sweepTimer = id;
}

/** The body with its content codings undone (gzip and deflate; others are an error). */
async function decodeContent(body: Bytes, coding: string | undefined): Promise<Bytes> {
  if (coding === undefined) return body;
  const codings = coding.split(",").map((c) => c.trim().toLowerCase()).filter((c) =>
    c !== "" && c !== "identity"
  ).reverse();
  let out = body;
  for (const c of codings) {
    if (c !== "gzip" && c !== "x-gzip" && c !== "deflate") {
      throw new Error(
        `the server sent a body with content-encoding "${c}", which this client does not ` +
          "decode (it asks for none); configure the server not to compress answers",
      );
    }
    const stream = new Blob([out]).stream().pipeThrough(
      new DecompressionStream(c === "deflate" ? "deflate" : "gzip"),
    );
    const parts: Bytes[] = [];
    let total = 0;
    for await (const part of stream) {
      total += part.length;
      if (total > HTTP1_MAX_RESPONSE_BYTES) {
        throw new Error(`the decoded body exceeds the ${HTTP1_MAX_RESPONSE_BYTES} byte limit`);
      }
      parts.push(part);
    }
    out = concatBytes(parts);
  }
  return out;
}
