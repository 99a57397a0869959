/**
 * Who a server answers to and what a form keeps: loopback links under both names
 * whatever loopback name is bound, a public URL for remote annotators, 421 for a
 * foreign `Host` on every page of the explorer and the annotation app, 400 for a
 * malformed path, the port named when taken; a form that keeps its input after a
 * validation error, checks spans after normalising them, clears the span of "Not
 * answerable", and carries one nonce-allowed script.
 */
import assert from "node:assert/strict";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { COMMANDS } from "@lib/cli/registry.ts";
import { explorerResponse, serveWorkspace } from "@lib/serve/mod.ts";
import {
  importSample,
  openWorkspace,
  readAnnotationLabels,
  readAnnotatorQueue,
} from "@lib/store/mod.ts";
import { create, FIRST, SECOND, workspace } from "./_fixture.ts";

/** One raw HTTP/1.1 request to 127.0.0.1:`port` with the `Host` given; returns status and body. */
async function raw(
  port: number,
  host: string,
  path: string,
  opts: { method?: string; origin?: string; body?: string } = {},
): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const body = opts.body ?? "";
    const head = [
      `${opts.method ?? "GET"} ${path} HTTP/1.1`,
      `Host: ${host}`,
      "Connection: close",
      ...(opts.origin ? [`Origin: ${opts.origin}`] : []),
      ...(opts.body !== undefined
        ? [
          "Content-Type: application/x-www-form-urlencoded",
          `Content-Length: ${new TextEncoder().encode(body).length}`,
        ]
        : []),
    ].join("\r\n");
    await conn.write(new TextEncoder().encode(`${head}\r\n\r\n${body}`));
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(65536);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
    }
    const text = new TextDecoder().decode(
      chunks.reduce((a, b) => new Uint8Array([...a, ...b]), new Uint8Array()),
    );
    return { status: Number(text.slice(9, 12)), body: text };
  } finally {
    try {
      conn.close();
    } catch {
      // Already closed by the server.
    }
  }
}

const port = (url: string) => Number(new URL(url).port);

Deno.test({
  name:
    "annotation writes: 127.0.0.1 and localhost links behind --host localhost, a public URL, foreign hosts refused",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await workspace();
    const tokens = await create(dir, "a,b", 2);
    const A = tokens.get("a")!;
    const ws0 = await openWorkspace(dir, { readOnly: true });
    const queue = await readAnnotatorQueue(ws0, "answerability", "a");
    ws0.close();
    const server = await serveWorkspace(dir, {
      port: 0,
      hostname: "localhost",
      annotate: true,
      publicUrl: "http://annotate.example:8443",
    });
    const p = port(server.url);
    const form = (label: string, span?: string) =>
      new URLSearchParams({ label, ...(span ? { span } : {}) }).toString();
    try {
      const path = (k: number) => `/annotate/${A}/${encodeURIComponent(queue[k].itemId)}`;
      // The printed 127.0.0.1 link and the localhost link both read and write.
      const cases: [string, string][] = [
        [`127.0.0.1:${p}`, `http://127.0.0.1:${p}`],
        [`localhost:${p}`, `http://localhost:${p}`],
        ["annotate.example:8443", "http://annotate.example:8443"],
      ];
      for (const [k, [host, origin]] of cases.entries()) {
        assert.equal((await raw(p, host, path(k))).status, 200, host);
        const saved = await raw(p, host, path(k), {
          method: "POST",
          origin,
          body: form("1", FIRST),
        });
        assert.equal(saved.status, 303, `${host}: ${saved.body.slice(0, 300)}`);
      }
      // A page asked under another name gets 421, a write with another origin 403.
      for (const host of ["attacker.example", `attacker.example:${p}`, "annotate.example:9999"]) {
        assert.equal((await raw(p, host, `/annotate/${A}`)).status, 421, host);
        assert.equal(
          (await raw(p, host, path(3), {
            method: "POST",
            origin: `http://${host}`,
            body: form("0"),
          }))
            .status,
          421,
          host,
        );
      }
      for (const origin of ["http://attacker.example", `http://127.0.0.1:${p + 1}`, "null"]) {
        const r = await raw(p, `127.0.0.1:${p}`, path(3), {
          method: "POST",
          origin,
          body: form("0"),
        });
        assert.equal(r.status, 403, origin);
      }
      // A malformed path is a 400, not a stack trace.
      const bad = await raw(p, `127.0.0.1:${p}`, "/annotate/%ZZ");
      assert.equal(bad.status, 400);
      assert.ok(!/at \w+ \(|\.ts:\d+/.test(bad.body));
    } finally {
      await server.shutdown();
    }
    const ws = await openWorkspace(dir, { readOnly: true });
    const labels = await readAnnotationLabels(ws, "answerability");
    ws.close();
    assert.deepEqual(
      labels.filter((l) => l.annotator === "a").map((l) => [l.itemId, l.label, l.span]).sort(),
      [0, 1, 2].map((k) => [queue[k].itemId, "1", FIRST]).sort(),
    );
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "explorer: every page checks Host (421 otherwise), 400 for a malformed path, the port named when taken",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const ws0 = await openWorkspace(dir);
    await importSample(ws0, "datasets/sample");
    const [{ topicId }] = await ws0.query<{ topicId: string }>(
      "SELECT topic_id FROM topics ORDER BY topic_id LIMIT 1",
    );
    const run = "bm25";
    ws0.close();
    const server = await serveWorkspace(dir, { port: 0, hostname: "127.0.0.1" });
    const p = port(server.url);
    try {
      const pages = [
        "/",
        `/topic/${topicId}`,
        `/report/${encodeURIComponent(run)}/${topicId}`,
        `/compare/${topicId}`,
        "/files/tables/none.csv",
      ];
      for (const path of pages) {
        const ok = await raw(p, `localhost:${p}`, path);
        assert.ok([200, 404].includes(ok.status), `${path}: ${ok.status}`);
        assert.equal((await raw(p, `127.0.0.1:${p}`, path)).status, ok.status, path);
        for (const host of ["attacker.example", `attacker.example:${p}`, `127.0.0.1:${p + 1}`]) {
          const r = await raw(p, host, path);
          assert.equal(r.status, 421, `${host}${path}`);
          assert.ok(!r.body.includes(topicId), "a refused page shows nothing of the workspace");
        }
      }
      assert.equal((await raw(p, `127.0.0.1:${p}`, "/")).status, 200);
      for (const path of ["/topic/%ZZ", "/report/%E0%A4%A/x", "/compare/%"]) {
        const r = await raw(p, `127.0.0.1:${p}`, path);
        assert.equal(r.status, 400, path);
        assert.ok(!/\.ts:\d+/.test(r.body), "no stack trace");
      }
      // The port is taken: the error names it.
      await assert.rejects(
        serveWorkspace(dir, { port: p, hostname: "127.0.0.1" }),
        (error: Error) =>
          error instanceof Deno.errors.AddrInUse && error.message.includes(`port ${p}`),
      );
    } finally {
      await server.shutdown();
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test("forms keep their input on an error, check spans after normalising, clear the span of Not answerable", async () => {
  const dir = await workspace();
  const tokens = await create(dir, "a,b", 2);
  const A = tokens.get("a")!;
  const ws = await openWorkspace(dir);
  try {
    const queue = await readAnnotatorQueue(ws, "answerability", "a");
    const base = "http://127.0.0.1:8765";
    const post = (k: number, body: Record<string, string>) =>
      explorerResponse(
        ws,
        new Request(`${base}/annotate/${A}/${encodeURIComponent(queue[k].itemId)}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
          body: new URLSearchParams(body).toString(),
        }),
        { annotate: true, origin: base },
      );
    const stored = async () =>
      new Map(
        (await readAnnotationLabels(ws, "answerability"))
          .filter((l) => l.annotator === "a")
          .map((l) => [l.itemId, [l.label, l.span]]),
      );
    // A lone stop word, or two: refused, and the form comes back with what was typed.
    for (const weak of ["the", "a", "The.", "is it"]) {
      const r = await post(0, { label: "1", span: weak });
      assert.equal(r.status, 400, weak);
      const html = await r.text();
      assert.match(html, /needs words that answer the question/);
      // queue[0] is the first question of its unit: field 0 of the unit's form.
      assert.ok(html.includes(`name="span-0" rows="2">${weak}</textarea>`), weak);
      assert.match(html, /name="label-0" value="1" required checked/);
    }
    // Not in the report: refused, input kept.
    const missing = await post(0, { label: "1", span: "an answer nowhere" });
    assert.equal(missing.status, 400);
    assert.ok((await missing.text()).includes(">an answer nowhere</textarea>"));
    // Case, spacing and punctuation set aside: "the FIRST answer is   here" is in the report.
    assert.equal((await post(0, { label: "1", span: "the FIRST answer is\n  here" })).status, 303);
    // Part of a word is not a span: "irst answer" is refused.
    assert.equal((await post(1, { label: "1", span: "irst answer" })).status, 400);
    // "Not answerable" with a span left in the field: stored without the span.
    assert.equal((await post(1, { label: "0", span: SECOND })).status, 303);
    const got = await stored();
    assert.deepEqual(got.get(queue[0].itemId), ["1", "the FIRST answer is here"]);
    assert.deepEqual(got.get(queue[1].itemId), ["0", undefined]);
    assert.equal(got.size, 2);
    // The item page allows its one script by a nonce that changes per response.
    const get = async () => {
      const r = await explorerResponse(
        ws,
        new Request(`${base}/annotate/${A}/${encodeURIComponent(queue[2].itemId)}`),
        { annotate: true, origin: base },
      );
      return { csp: r.headers.get("content-security-policy")!, html: await r.text() };
    };
    const one = await get(), two = await get();
    const nonce = one.csp.match(/script-src 'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
    assert.ok(nonce, one.csp);
    assert.ok(one.html.includes(`<script nonce="${nonce}">`));
    assert.equal(one.html.split("<script").length, 2, "one script");
    assert.notEqual(two.csp, one.csp);
    // A selection button per question, shown by the script.
    assert.deepEqual(
      [...one.html.matchAll(/<button type="button" class="pick" id="(pick-\d)" hidden>/g)]
        .map((m) => m[1]),
      ["pick-0", "pick-1"],
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux serve: --public-url must be an http(s) origin; a taken port is named", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  await importSample(ws, "datasets/sample");
  ws.close();
  for (const bad of ["ftp://lab.example", "http://lab.example/annotate", "not a url"]) {
    const io = memoryIo();
    assert.equal(await main(["serve", "--workspace", dir, "--public-url", bad], io, COMMANDS), 2);
    assert.match(io.stderr(), /--public-url must/);
  }
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const taken = (listener.addr as Deno.NetAddr).port;
  try {
    const io = memoryIo();
    const code = await main(["serve", "--workspace", dir, "--port", String(taken)], io, COMMANDS);
    assert.equal(code, 1);
    assert.match(io.stderr(), new RegExp(`port ${taken} is already in use`));
  } finally {
    listener.close();
    await Deno.remove(dir, { recursive: true });
  }
});
