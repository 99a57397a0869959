// Reads one HTTP/1.1 response from a byte source; private to `@lib/llm`.
// Framing follows RFC 9112: chunked transfer coding first, then Content-Length,
// else the body runs to the end of the connection.

/** Bytes backed by a plain ArrayBuffer. */
export type Bytes = Uint8Array<ArrayBuffer>;

const EMPTY: Bytes = new Uint8Array(0);
const LF = 10;
const CR = 13;
const latin1 = new TextDecoder("latin1");

/** The most a response head (status line and headers) may take. */
export const MAX_HEAD_BYTES = 64 * 1024;

/** A response's status, headers and raw (still content-encoded) body. */
export interface RawResponse {
  status: number;
  /** Lowercased name to value; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Bytes;
  /** Whether the connection may carry another request. */
  keepAlive: boolean;
}

/**
 * Buffers the chunks of one connection: `read` yields the next chunk or `null`
 * at the end of the stream. `received` counts every byte read, so a caller can
 * tell a connection that never answered from one that broke mid-response.
 */
export class ResponseReader {
  #buf: Bytes = EMPTY;
  received = 0;

  constructor(
    private readonly read: () => Promise<Bytes | null>,
    private readonly maxBytes: number,
  ) {}

  /** Bytes read but not consumed by the response (a server that sent more than one answer). */
  get leftover(): number {
    return this.#buf.length;
  }

  async #next(): Promise<Bytes | null> {
    const chunk = await this.read();
    if (chunk === null) return null;
    this.received += chunk.length;
    if (this.received > this.maxBytes + MAX_HEAD_BYTES) {
      throw new Error(`the response exceeds the ${this.maxBytes} byte limit`);
    }
    return chunk;
  }

  /** Appends the next chunk to the buffer; throws at the end of the stream. */
  async #more(what: string): Promise<void> {
    const chunk = await this.#next();
    if (chunk === null) {
      throw new TypeError(`connection closed before the response ${what} was complete`);
    }
    if (this.#buf.length === 0) {
      this.#buf = chunk;
      return;
    }
    const joined = new Uint8Array(this.#buf.length + chunk.length);
    joined.set(this.#buf);
    joined.set(chunk, this.#buf.length);
    this.#buf = joined;
  }

  /** The head: status line and header lines up to the blank line, decoded as Latin-1. */
  async #head(): Promise<string> {
    let from = 0;
    for (;;) {
      // Blank lines before the status line are skipped.
      let start = 0;
      while (start < this.#buf.length && (this.#buf[start] === CR || this.#buf[start] === LF)) {
        start++;
      }
      if (start > 0) this.#buf = this.#buf.subarray(start), from = 0;
      const end = blankLineEnd(this.#buf, from);
      if (end > 0) {
        const head = latin1.decode(this.#buf.subarray(0, end));
        this.#buf = this.#buf.subarray(end);
        return head;
      }
      if (this.#buf.length > MAX_HEAD_BYTES) {
        throw new Error(`the response head exceeds ${MAX_HEAD_BYTES} bytes`);
      }
      from = Math.max(0, this.#buf.length - 3);
      await this.#more("head");
    }
  }

  /** One line (without its CR LF), for chunk sizes and trailers. */
  async #line(): Promise<string> {
    let from = 0;
    for (;;) {
      const i = this.#buf.indexOf(LF, from);
      if (i >= 0) {
        const end = i > 0 && this.#buf[i - 1] === CR ? i - 1 : i;
        const line = latin1.decode(this.#buf.subarray(0, end));
        this.#buf = this.#buf.subarray(i + 1);
        return line;
      }
      if (this.#buf.length > MAX_HEAD_BYTES) {
        throw new Error(`a chunk line of the response exceeds ${MAX_HEAD_BYTES} bytes`);
      }
      from = this.#buf.length;
      await this.#more("body");
    }
  }

  /** Exactly `n` bytes. */
  async #take(n: number): Promise<Bytes> {
    if (this.#buf.length >= n) {
      const out = this.#buf.subarray(0, n);
      this.#buf = this.#buf.subarray(n);
      return out;
    }
    const out = new Uint8Array(n);
    out.set(this.#buf);
    let have = this.#buf.length;
    this.#buf = EMPTY;
    while (have < n) {
      const chunk = await this.#next();
      if (chunk === null) {
        throw new TypeError(
          `connection closed before the response body was complete (${have} of ${n} bytes)`,
        );
      }
      const k = Math.min(n - have, chunk.length);
      out.set(chunk.subarray(0, k), have);
      have += k;
      this.#buf = chunk.subarray(k);
    }
    return out;
  }

  /** Everything up to the end of the stream. */
  async #rest(): Promise<Bytes> {
    const parts = [this.#buf];
    this.#buf = EMPTY;
    for (let chunk = await this.#next(); chunk !== null; chunk = await this.#next()) {
      parts.push(chunk);
    }
    return concatBytes(parts);
  }

  /** A chunked body; chunk extensions are ignored and trailers read and dropped. */
  async #chunked(): Promise<Bytes> {
    const parts: Bytes[] = [];
    let total = 0;
    for (;;) {
      const line = await this.#line();
      const hex = line.split(";")[0].trim();
      if (!/^[0-9a-fA-F]{1,15}$/.test(hex)) {
        throw new Error(`invalid chunk size line ${JSON.stringify(line.slice(0, 40))}`);
      }
      const size = parseInt(hex, 16);
      if (size === 0) break;
      total += size;
      if (total > this.maxBytes) {
        throw new Error(`the response exceeds the ${this.maxBytes} byte limit`);
      }
      parts.push(await this.#take(size));
      if ((await this.#line()) !== "") throw new Error("a chunk is longer than its size line says");
    }
    while ((await this.#line()) !== "") {
      // trailer fields
    }
    return concatBytes(parts);
  }

  /**
   * Reads the next final response (1xx interim responses are skipped) to the
   * `method` request.
   *
   * @throws {TypeError} when the connection ends before the response does.
   * @throws {Error} on a malformed head, chunk line or length, or a body over the limit.
   */
  async response(method: string): Promise<RawResponse> {
    for (;;) {
      const head = parseHead(await this.#head());
      const { status, headers, version } = head;
      if (status >= 100 && status < 200) {
        if (status === 101) throw new Error("the server switched protocols (HTTP 101)");
        continue;
      }
      const connection = (headers["connection"] ?? "").toLowerCase();
      let keepAlive = version === "1.0"
        ? /(^|,)\s*keep-alive\s*(,|$)/.test(connection)
        : !/(^|,)\s*close\s*(,|$)/.test(connection);
      let body = EMPTY;
      const te = headers["transfer-encoding"];
      if (method === "HEAD" || status === 204 || status === 304) {
        // no body
      } else if (te !== undefined) {
        if (/(^|,)\s*chunked\s*$/i.test(te)) body = await this.#chunked();
        else body = await this.#rest(), keepAlive = false;
      } else if (headers["content-length"] !== undefined) {
        body = await this.#take(contentLength(headers["content-length"], this.maxBytes));
      } else {
        body = await this.#rest();
        keepAlive = false;
      }
      return { status, headers, body, keepAlive };
    }
  }
}

/** The index just past the blank line ending a head, or -1 when it is not in `buf` yet. */
function blankLineEnd(buf: Bytes, from: number): number {
  for (let i = buf.indexOf(LF, from); i >= 0; i = buf.indexOf(LF, i + 1)) {
    if (buf[i + 1] === LF) return i + 2;
    if (buf[i + 1] === CR && buf[i + 2] === LF) return i + 3;
  }
  return -1;
}

function parseHead(
  head: string,
): { status: number; version: string; headers: Record<string, string> } {
  const lines = head.split(/\r?\n/);
  const m = /^HTTP\/(\d\.\d)[ \t]+(\d{3})(?:[ \t]|$)/.exec(lines[0]);
  if (!m) throw new Error(`invalid status line ${JSON.stringify(lines[0].slice(0, 60))}`);
  const headers: Record<string, string> = {};
  let last = "";
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line === "") continue;
    if ((line[0] === " " || line[0] === "\t") && last) {
      // An obsolete folded continuation of the previous field.
      headers[last] = `${headers[last]} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    last = name;
  }
  return { status: Number(m[2]), version: m[1], headers };
}

/** A Content-Length value; repeated equal values (`5, 5`) are one. */
function contentLength(value: string, max: number): number {
  const values = new Set(value.split(",").map((v) => v.trim()));
  const [only] = values;
  if (values.size !== 1 || !/^\d{1,16}$/.test(only)) {
    throw new Error(`invalid content-length ${JSON.stringify(value.slice(0, 40))}`);
  }
  const n = Number(only);
  if (n > max) throw new Error(`the response body (${n} bytes) exceeds the ${max} byte limit`);
  return n;
}

/** The parts joined (the part itself when there is one). */
export function concatBytes(parts: Bytes[]): Bytes {
  const filled = parts.filter((p) => p.length > 0);
  if (filled.length <= 1) return filled[0] ?? EMPTY;
  const out = new Uint8Array(filled.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of filled) out.set(p, at), at += p.length;
  return out;
}
