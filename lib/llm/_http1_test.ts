import assert from "node:assert/strict";
import { http1CloseIdle, http1Request } from "./_http1.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** One request as a raw server read it. */
interface SeenRequest {
  head: string;
  body: string;
}

/** Reads one request (head and content-length body); null when the client closed first. */
async function readRequest(conn: Deno.Conn): Promise<SeenRequest | null> {
  let buf = new Uint8Array(0);
  const chunk = new Uint8Array(64 * 1024);
  const more = async () => {
    const n = await conn.read(chunk).catch(() => null);
    if (n === null) return false;
    const joined = new Uint8Array(buf.length + n);
    joined.set(buf);
    joined.set(chunk.subarray(0, n), buf.length);
    buf = joined;
    return true;
  };
  let end = -1;
  while ((end = dec.decode(buf).indexOf("\r\n\r\n")) < 0) if (!(await more())) return null;
  const head = dec.decode(buf).slice(0, end);
  const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
  const bodyStart = enc.encode(head).length + 4;
  while (buf.length < bodyStart + length) if (!(await more())) return null;
  return { head, body: dec.decode(buf.subarray(bodyStart, bodyStart + length)) };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done()` holds, up to `ms` (a loaded machine may take a while to run the other side). */
async function until(done: () => boolean, ms = 5000): Promise<void> {
  for (const t0 = performance.now(); !done() && performance.now() - t0 < ms;) await pause(5);
}

/** Writes the pieces one by one with a pause between, so they arrive in separate reads. */
async function writeSlowly(conn: Deno.Conn, pieces: (string | Uint8Array)[]): Promise<void> {
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) await pause(15);
    await conn.write(typeof piece === "string" ? enc.encode(piece) : piece);
  }
}

/**
 * A raw TCP server: `handle` runs for each accepted connection (its index
 * given); `requests` collects every request read through `read`.
 */
function rawServer(handle: (conn: Deno.Conn, index: number, server: RawServer) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const conns: Deno.Conn[] = [];
  const tasks: Promise<void>[] = [];
  const server = {
    url: new URL(`http://127.0.0.1:${port}/v1/score`),
    port,
    requests: [] as SeenRequest[],
    get accepted() {
      return conns.length;
    },
    async read(conn: Deno.Conn) {
      const req = await readRequest(conn);
      if (req) server.requests.push(req);
      return req;
    },
    async [Symbol.asyncDispose]() {
      http1CloseIdle();
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed by its handler */ }
      }
      await Promise.all(tasks);
    },
  };
  (async () => {
    try {
      for await (const conn of listener) {
        const index = conns.length;
        conns.push(conn);
        tasks.push(handle(conn, index, server).catch(() => {}));
      }
    } catch { /* listener closed */ }
  })();
  return server;
}
type RawServer = ReturnType<typeof rawServer>;

/** A keep-alive echo: each answer is `echo:` and the request's body. */
const echo = async (conn: Deno.Conn, _i: number, server: RawServer) => {
  for (let req = await server.read(conn); req; req = await server.read(conn)) {
    const body = enc.encode(`echo:${req.body}`);
    await conn.write(enc.encode(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`));
    await conn.write(body);
  }
};

const post = (url: URL, body: string, signal?: AbortSignal) =>
  http1Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer k" },
    body,
    signal,
  });

Deno.test("http1Request writes one plain request: host, type, UTF-8 length, key, keep-alive", async () => {
  await using server = rawServer(echo);
  const res = await post(server.url, '{"q":"é€"}');
  assert.deepEqual([res.status, res.text, res.headers], [200, 'echo:{"q":"é€"}', {
    "content-length": "18", // "echo:" and the 13 bytes sent
  }]);
  assert.equal(
    server.requests[0].head,
    [
      "POST /v1/score HTTP/1.1",
      `host: 127.0.0.1:${server.port}`,
      "content-type: application/json",
      "authorization: Bearer k",
      "content-length: 13", // 8 ASCII bytes + é (2) + € (3)
      "connection: keep-alive",
    ].join("\r\n"),
  );
});

Deno.test("http1Request reuses one connection for sequential requests", async () => {
  await using server = rawServer(echo);
  const texts = [];
  for (let i = 0; i < 5; i++) texts.push((await post(server.url, `r${i}`)).text);
  assert.deepEqual(texts, ["echo:r0", "echo:r1", "echo:r2", "echo:r3", "echo:r4"]);
  // A large body in both directions on the same connection (many reads, growing buffers).
  const big = "0123456789".repeat(100_000);
  assert.equal((await post(server.url, big)).text, `echo:${big}`);
  assert.equal((await post(server.url, "after")).text, "echo:after");
  assert.equal(server.accepted, 1);
});

Deno.test("http1Request answers 64 parallel requests each with its own answer, then reuses the 64 connections", async () => {
  await using server = rawServer(echo);
  const wave = async (tag: string) => {
    const bodies = Array.from({ length: 64 }, (_, i) => `${tag}-${i}-${"x".repeat(i * 50)}`);
    const answers = await Promise.all(bodies.map((b) => post(server.url, b)));
    assert.deepEqual(answers.map((a) => a.text), bodies.map((b) => `echo:${b}`));
  };
  await wave("a");
  assert.equal(server.accepted, 64);
  await wave("b");
  assert.equal(server.accepted, 64);
  assert.equal(server.requests.length, 128);
});

Deno.test("http1Request reads chunked bodies split across reads, with extensions and trailers", async () => {
  await using server = rawServer(async (conn, _i, s) => {
    await s.read(conn);
    await writeSlowly(conn, [
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=val",
      "ue\r\nhel",
      "lo\r\n6 ; x=1\r\n wor",
      "ld\r\n0\r\nX-Trailer: t\r\n",
      "\r\n",
    ]);
    await echo(conn, 0, s); // the connection stays usable
  });
  assert.equal((await post(server.url, "a")).text, "hello world");
  assert.equal((await post(server.url, "b")).text, "echo:b");
  assert.equal(server.accepted, 1);
});

Deno.test("http1Request decodes UTF-8 characters split across reads", async () => {
  const bytes = enc.encode("naïve €5 ✓");
  await using server = rawServer(async (conn, _i, s) => {
    await s.read(conn);
    // Cuts inside "ï" (2 bytes), "€" (3 bytes) and "✓" (3 bytes).
    await writeSlowly(conn, [
      `HTTP/1.1 200 OK\r\nContent-Length: ${bytes.length}\r\n\r\n`,
      bytes.subarray(0, 3),
      bytes.subarray(3, 8),
      bytes.subarray(8, 13),
      bytes.subarray(13),
    ]);
  });
  assert.equal((await post(server.url, "a")).text, "naïve €5 ✓");
});

Deno.test("http1Request reads a body until close and then opens a new connection", async () => {
  await using server = rawServer(async (conn, i, s) => {
    await s.read(conn);
    await writeSlowly(conn, [
      "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\npart one, ",
      `two ${i}`,
    ]);
    conn.close();
  });
  assert.equal((await post(server.url, "a")).text, "part one, two 0");
  assert.equal((await post(server.url, "b")).text, "part one, two 1");
  assert.equal(server.accepted, 2);
});

Deno.test("http1Request closes the socket after connection: close and does not reuse it", async () => {
  let sawClientClose = false;
  await using server = rawServer(async (conn, _i, s) => {
    await s.read(conn);
    await conn.write(
      enc.encode("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"),
    );
    // The server keeps its side open: only the client may end the connection.
    sawClientClose = (await s.read(conn)) === null;
  });
  assert.equal((await post(server.url, "a")).text, "ok");
  assert.equal((await post(server.url, "b")).text, "ok");
  assert.equal(server.accepted, 2);
  await until(() => sawClientClose);
  assert.equal(sawClientClose, true);
});

Deno.test("http1Request replaces a pooled connection the server closed while idle", async () => {
  await using server = rawServer(async (conn, _i, s) => {
    await s.read(conn);
    await conn.write(enc.encode("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
    conn.close();
  });
  assert.equal((await post(server.url, "a")).text, "ok");
  await pause(30);
  assert.equal((await post(server.url, "b")).text, "ok");
  assert.deepEqual([server.accepted, server.requests.length], [2, 2]);
});

Deno.test("http1Request sends again once when a reused connection closes before answering", async () => {
  // The server answers one request per connection, then reads the next and hangs up unanswered.
  await using server = rawServer(async (conn, _i, s) => {
    const req = await s.read(conn);
    await conn.write(enc.encode(`HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n${req!.body}ok`));
    await s.read(conn);
    conn.close();
  });
  assert.equal((await post(server.url, "1")).text, "1ok");
  assert.equal((await post(server.url, "2")).text, "2ok");
  assert.deepEqual(server.requests.map((r) => r.body), ["1", "2", "2"]);
  assert.equal(server.accepted, 2);
});

Deno.test("http1Request never sends again once part of the answer arrived", async () => {
  await using server = rawServer(async (conn, _i, s) => {
    await s.read(conn);
    await conn.write(enc.encode("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
    await s.read(conn);
    await conn.write(enc.encode("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial"));
    conn.close();
  });
  assert.equal((await post(server.url, "1")).text, "ok");
  await assert.rejects(post(server.url, "2"), (e: Error) => {
    assert.ok(e instanceof TypeError);
    assert.equal(
      e.message,
      "connection closed before the response body was complete (7 of 100 bytes)",
    );
    return true;
  });
  assert.deepEqual([server.accepted, server.requests.length], [1, 2]);
});

Deno.test("http1Request skips 1xx interim responses and tolerates odd header whitespace", async () => {
  await using server = rawServer(async (conn, _i, s) => {
    await s.read(conn);
    await writeSlowly(conn, [
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n",
      "HTTP/1.1 429 Too Many\r\nRetry-After:   7  \r\nX-Folded: one\r\n\t two\r\n",
      "x-rep: a\r\nX-Rep:b\r\nContent-Length: 4\n\nslow",
    ]);
  });
  const res = await post(server.url, "a");
  assert.deepEqual([res.status, res.text, res.headers], [429, "slow", {
    "retry-after": "7",
    "x-folded": "one two",
    "x-rep": "a, b",
    "content-length": "4",
  }]);
});

Deno.test("http1Request decodes gzip and deflate bodies and refuses br clearly", async () => {
  const packed = async (text: string, format: CompressionFormat) =>
    new Uint8Array(
      await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream(format)))
        .arrayBuffer(),
    );
  const gz = await packed("gzipped ünïcode", "gzip");
  const df = await packed("deflated", "deflate");
  await using server = rawServer(async (conn, _i, s) => {
    for (const [coding, body] of [["gzip", gz], ["deflate", df], ["br", df]] as const) {
      await s.read(conn);
      await conn.write(
        enc.encode(
          `HTTP/1.1 200 OK\r\nContent-Encoding: ${coding}\r\nContent-Length: ${body.length}\r\n\r\n`,
        ),
      );
      await conn.write(body);
    }
  });
  assert.equal((await post(server.url, "a")).text, "gzipped ünïcode");
  assert.equal((await post(server.url, "b")).text, "deflated");
  await assert.rejects(post(server.url, "c"), {
    name: "Error",
    message: 'the server sent a body with content-encoding "br", which this client does not ' +
      "decode (it asks for none); configure the server not to compress answers",
  });
});

Deno.test("http1Request rejects a body over the size limit before reading it", async () => {
  await using server = rawServer(async (conn, _i, s) => {
    await s.read(conn);
    await conn.write(enc.encode("HTTP/1.1 200 OK\r\nContent-Length: 67108865\r\n\r\nabc"));
    await s.read(conn);
  });
  await assert.rejects(post(server.url, "a"), {
    name: "Error",
    message: "the response body (67108865 bytes) exceeds the 67108864 byte limit",
  });
});

Deno.test("http1Request closes the socket and rejects with the reason on abort", async () => {
  let sawClientClose = false;
  await using server = rawServer(async (conn, _i, s) => {
    await s.read(conn);
    sawClientClose = (await s.read(conn)) === null; // never answers
  });
  const controller = new AbortController();
  const reason = new DOMException("stop", "AbortError");
  setTimeout(() => controller.abort(reason), 30);
  const error = await post(server.url, "a", controller.signal).catch((e) => e);
  assert.equal(error, reason);
  await until(() => sawClientClose);
  assert.equal(sawClientClose, true);
});

Deno.test("http1Request reports a refused connection as fetch's TypeError with the cause", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const url = new URL(`http://127.0.0.1:${port}/v1/score`);
  const error = await post(url, "a").catch((e) => e);
  assert.ok(error instanceof TypeError);
  assert.match(
    error.message,
    new RegExp(`^error sending request for url \\(${url.href}\\): ConnectionRefused: .*refused`),
  );
});

Deno.test("http1Request names what is malformed in an answer", async () => {
  const answers = [
    "SMTP ready\r\n\r\n",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: 3, 4\r\n\r\nabc",
  ];
  await using server = rawServer(async (conn, i, s) => {
    await s.read(conn);
    await conn.write(enc.encode(answers[i]));
    await s.read(conn);
  });
  const errors = [];
  for (let i = 0; i < answers.length; i++) {
    errors.push(
      await post(server.url, "a").then(() => "no error", (e: Error) => [e.name, e.message]),
    );
  }
  assert.deepEqual(errors, [
    ["Error", 'invalid status line "SMTP ready"'],
    ["Error", 'invalid chunk size line "zz"'],
    ["Error", 'invalid content-length "3, 4"'],
  ]);
  assert.equal(server.accepted, 3);
});

Deno.test("an idle pooled connection does not keep the process alive", async () => {
  await using server = rawServer(echo); // keeps every connection open
  const code = `import { http1Request } from ${
    JSON.stringify(new URL("./_http1.ts", import.meta.url).href)
  };
const res = await http1Request(new URL(${JSON.stringify(server.url.href)}), {
  method: "POST", headers: {}, body: "from a child",
});
console.log(res.text);`;
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(20_000),
  }).output();
  const seconds = (performance.now() - started) / 1000;
  assert.equal(dec.decode(out.stdout).trim(), "echo:from a child");
  // The idle timeout is 4 s: an exit before it means nothing pooled held the process.
  assert.ok(seconds < 3.5, `the child took ${seconds.toFixed(1)} s to exit`);
  assert.equal(server.accepted, 1);
});
