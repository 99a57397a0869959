// The transport's two HTTP paths (the lean HTTP/1.1 client for plain http:
// endpoints, fetch otherwise) give callers the same answers and errors.
import assert from "node:assert/strict";
import { openAiTransport, type Transport } from "./_transport.ts";
import { TransportError } from "./_retry.ts";
import { http1CloseIdle } from "./_http1.ts";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";

/** The lean path (no injected fetch) and the fetch path (fetch injected) for one endpoint. */
function bothPaths(baseUrl: string, apiKey = "sk-secret-key"): [string, Transport][] {
  return [
    ["lean", openAiTransport({ baseUrl, apiKey })],
    ["fetch", openAiTransport({ baseUrl, apiKey, fetch: (u, i) => fetch(u, i) })],
  ];
}

/** An answer or error reduced to what a caller can observe. */
async function outcome(p: Promise<unknown>): Promise<unknown> {
  try {
    return { value: await p };
  } catch (e) {
    if (e instanceof TransportError) return { error: e.name, failure: { ...e.failure } };
    return { thrown: e };
  }
}

const chatBody = (q: string) => ({ model: "m", messages: [{ role: "user", content: q }] });

Deno.test("the lean path and fetch give the same answers and TransportErrors", async () => {
  await using server = startOpenAiServer({
    chat: (req) => {
      const q = req.messages[0].content;
      if (q === "429") return { status: 429, retryAfter: 2, message: "slow down" };
      if (q === "500") return { status: 500, message: "boom" };
      if (q === "503") return { status: 503 };
      if (q === "400") return { status: 400, message: "bad field" };
      if (q === "garbled") return { malformedBody: "{not json" };
      return { content: `answer to ${q} ✓`, usage: { prompt_tokens: 3, completion_tokens: 4 } };
    },
  });
  const where = `${server.url}/chat/completions`;
  const cases: [string, unknown][] = [
    ["ok é", {
      value: {
        choices: [{
          index: 0,
          message: { role: "assistant", content: "answer to ok é ✓" },
          logprobs: null,
          finish_reason: "stop",
        }],
        usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      },
    }],
    ["429", {
      error: "TransportError",
      failure: {
        retryable: true,
        status: 429,
        retryAfterMs: 2000,
        message: `HTTP 429 from ${where}: slow down`,
      },
    }],
    ["500", {
      error: "TransportError",
      failure: {
        retryable: true,
        status: 500,
        retryAfterMs: undefined,
        message: `HTTP 500 from ${where}: boom`,
      },
    }],
    ["503", {
      error: "TransportError",
      failure: {
        retryable: true,
        status: 503,
        retryAfterMs: undefined,
        message: `HTTP 503 from ${where}: Scripted error 503`,
      },
    }],
    ["400", {
      error: "TransportError",
      failure: {
        retryable: false,
        status: 400,
        retryAfterMs: undefined,
        message: `HTTP 400 from ${where}: bad field`,
      },
    }],
    ["garbled", {
      error: "TransportError",
      failure: {
        retryable: true,
        message: `Bad response from ${where} (SyntaxError: Expected property name or '}' ` +
          "in JSON at position 1 (line 1 column 2))",
      },
    }],
  ];
  for (const [path, t] of bothPaths(server.url)) {
    for (const [q, expected] of cases) {
      const got = await outcome(t.post("/chat/completions", chatBody(q), { timeoutMs: 5000 }));
      const value = (got as { value?: { choices?: unknown[]; usage?: unknown } }).value;
      // The server's id and creation time differ per answer; compare the rest.
      const seen = value ? { value: { choices: value.choices, usage: value.usage } } : got;
      assert.deepEqual(seen, expected, `${path} path, request ${q}`);
    }
  }
  http1CloseIdle();
});

Deno.test("both paths report a dropped answer and a refused connection as retryable connection failures", async () => {
  await using server = startOpenAiServer({ chat: () => ({ drop: true }) });
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  for (const [path, t] of bothPaths(server.url)) {
    const dropped = await t.post("/chat/completions", chatBody("q"), { timeoutMs: 5000 })
      .catch((e) => e);
    assert.ok(dropped instanceof TransportError, path);
    assert.deepEqual([dropped.failure.retryable, dropped.failure.status], [true, undefined]);
    assert.ok(
      dropped.message.startsWith(
        `Connection to ${server.url}/chat/completions failed (TypeError: `,
      ),
      `${path}: ${dropped.message}`,
    );
  }
  for (const [path, t] of bothPaths(`http://127.0.0.1:${port}/v1?api-version=1`)) {
    const refused = await t.post("/score", {}, { timeoutMs: 5000 }).catch((e) => e);
    assert.ok(refused instanceof TransportError, path);
    assert.equal(refused.failure.retryable, true);
    assert.match(
      refused.message,
      new RegExp(
        `^Connection to http://127\\.0\\.0\\.1:${port}/v1/score failed \\(TypeError: .*refused`,
        "i",
      ),
      path,
    );
    assert.ok(!refused.message.includes("api-version"), refused.message);
  }
  http1CloseIdle();
});

Deno.test("both paths time out and abort alike", async () => {
  await using server = startOpenAiServer({ chat: () => ({ content: "late", delayMs: 400 }) });
  for (const [path, t] of bothPaths(server.url)) {
    const slow = await outcome(t.post("/chat/completions", chatBody("q"), { timeoutMs: 50 }));
    assert.deepEqual(slow, {
      error: "TransportError",
      failure: {
        retryable: true,
        message: `Request to ${server.url}/chat/completions timed out after 50 ms`,
      },
    }, path);
    const controller = new AbortController();
    const reason = new DOMException("stopped by the user", "AbortError");
    setTimeout(() => controller.abort(reason), 30);
    const stopped = await t.post("/chat/completions", chatBody("q"), {
      timeoutMs: 5000,
      signal: controller.signal,
    }).catch((e) => e);
    assert.equal(stopped, reason, path);
  }
  // Let the server finish the abandoned answers before it closes.
  await new Promise((r) => setTimeout(r, 450));
  http1CloseIdle();
});

Deno.test("both paths follow same-origin redirects and refuse other origins", async () => {
  const seen: string[] = [];
  let origin = "";
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      const body = await req.text();
      seen.push(`${req.method} ${path} ${body}`);
      const moved = (status: number, location: string) =>
        new Response(null, { status, headers: { location } });
      if (path === "/v1/a/score") return moved(307, "/v1/b/score");
      if (path === "/v1/x/score") return moved(302, origin.replace("127.0.0.1", "localhost"));
      if (path === "/v1/loop/score") return moved(308, "/v1/loop/score");
      if (path === "/v1/bare/score") return new Response("moved", { status: 301 });
      return Response.json({ at: path, body: JSON.parse(body) });
    },
  );
  origin = `http://127.0.0.1:${server.addr.port}`;
  const local = `http://127.0.0.1:${server.addr.port}`;
  const cases: [string, unknown][] = [
    ["a", { value: { at: "/v1/b/score", body: { n: 1 } } }],
    ["x", {
      error: "TransportError",
      failure: {
        retryable: false,
        status: 302,
        message: `Refusing to follow a redirect (HTTP 302) from ${local} to another origin, ` +
          `http://localhost:${server.addr.port}: set the base URL to the new address, or allow ` +
          "redirects (followRedirects, CRUX_FOLLOW_REDIRECTS=1)",
      },
    }],
    ["loop", {
      error: "TransportError",
      failure: {
        retryable: false,
        message: `More than 5 redirects from ${local}/v1/loop/score; check the base URL`,
      },
    }],
    ["bare", {
      error: "TransportError",
      failure: {
        retryable: false,
        status: 301,
        retryAfterMs: undefined,
        message: `HTTP 301 from ${local}/v1/bare/score: moved`,
      },
    }],
  ];
  for (const [path, t] of bothPaths(`${local}/v1`)) {
    seen.length = 0;
    for (const [dir, expected] of cases) {
      const got = await outcome(t.post(`/${dir}/score`, { n: 1 }, { timeoutMs: 5000 }));
      assert.deepEqual(got, expected, `${path} path, /${dir}/score`);
    }
    assert.deepEqual(seen, [
      'POST /v1/a/score {"n":1}',
      'POST /v1/b/score {"n":1}',
      'POST /v1/x/score {"n":1}',
      ...Array(6).fill('POST /v1/loop/score {"n":1}'),
      'POST /v1/bare/score {"n":1}',
    ], path);
  }
  http1CloseIdle();
});

Deno.test("with HTTP_PROXY set, calls go through fetch, which sends them to the proxy", async () => {
  // A proxy that answers every request itself and records the request line.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const lines: string[] = [];
  const proxy = (async () => {
    const conn = await listener.accept();
    const buf = new Uint8Array(64 * 1024);
    let text = "";
    while (!text.includes("\r\n\r\n")) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    lines.push(text.split("\r\n")[0]);
    const body = '{"via":"proxy"}';
    await conn.write(new TextEncoder().encode(
      `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n` +
        `connection: close\r\n\r\n${body}`,
    ));
    conn.close();
  })();
  const code = `import { openAiTransport } from ${
    JSON.stringify(new URL("./_transport.ts", import.meta.url).href)
  };
const t = openAiTransport({ baseUrl: "http://model.invalid/v1" });
console.log(JSON.stringify(await t.post("/score", { q: 1 }, { timeoutMs: 5000 })));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    cwd: new URL("../..", import.meta.url),
    env: { HTTP_PROXY: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}` },
    stdout: "piped",
    stderr: "piped",
  }).output();
  listener.close(); // a proxy never called stops waiting
  await proxy.catch(() => {});
  assert.equal(new TextDecoder().decode(out.stdout).trim(), '{"via":"proxy"}');
  assert.deepEqual(lines, ["POST http://model.invalid/v1/score HTTP/1.1"]);
});
