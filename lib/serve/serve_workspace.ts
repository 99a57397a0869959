/**
 * The explorer's HTTP server: Deno's own server over one workspace, opened
 * read-only while requests are being answered (never between them, so a
 * pipeline can write), with one stable URL per page. Every request must name
 * this server in its `Host`; answers must come from one of its origins.
 *
 * @module
 */
import { extname, join, normalize, sep } from "node:path";
import {
  type CompareRows,
  openWorkspace,
  readExplorerCompareRows,
  readExplorerReportRows,
  type ReportRows,
  type TopicRows,
  type Workspace,
  WorkspaceStorageError,
} from "@lib/store/mod.ts";
import { comparePage } from "./compare_page.ts";
import { experimentPage } from "./experiment_page.ts";
import { reportPage } from "./report_page.ts";
import { topicPage } from "./topic_page.ts";
import { esc, newNonce, page, script, SORT_SCRIPT } from "./_html.ts";
import { annotateResponse } from "./annotate_response.ts";
import { hostAllowed, type Origins, requestHost, serverOrigins } from "./_origins.ts";
import { WorkspaceLease } from "./_lease.ts";
import { SNAPSHOT_K, TopicSnapshots } from "./_topic_snapshots.ts";
import { RowSnapshot } from "./_row_snapshot.ts";

/** Options of {@linkcode serveWorkspace}. */
export interface ServeOptions {
  /** Port (default 8765; 0 picks a free one). */
  port?: number;
  /** Address to bind. Default `127.0.0.1`; anything but loopback needs `allowRemote`. */
  hostname?: string;
  /** Allow binding to an address other than loopback. Default false. */
  allowRemote?: boolean;
  /** Stops the server. */
  signal?: AbortSignal;
  /** Called once listening, with the base URL. */
  onListen?: (url: string) => void;
  /**
   * Serve the annotation pages (`/annotate/<token>`) instead of the explorer; the
   * workspace is opened read-write while an answer is being saved, and every answer
   * is committed before it is acknowledged. Default false.
   */
  annotate?: boolean;
  /**
   * The origin people reach the server by when it is not the address bound (a
   * reverse proxy, or the machine's name for remote annotators), e.g.
   * `http://annotate.example:8765`: its `Host` is served and its pages may post answers.
   */
  publicUrl?: string;
}

/** Options of {@linkcode explorerResponse}. */
export interface ExplorerResponseOptions {
  /** Answer `/annotate/...` (and only that); the workspace must be read-write. */
  annotate?: boolean;
  /** The server's own origin, which write requests must come from. */
  origin?: string;
  /**
   * The `Host` values served and the origins answers may come from (see
   * `serveWorkspace`); a request with another `Host` gets 421. Default: no `Host`
   * check, and writes only from `origin`.
   */
  allowed?: { hosts: ReadonlySet<string>; origins: ReadonlySet<string> };
  /**
   * Every topic's page rows for `k` passages per run, read once and shared (see
   * `readExplorerTopicRows`); default: each topic page reads its own.
   */
  topicRows?: (k: number) => Promise<Map<string, TopicRows>>;
  /**
   * Every report's page rows (topic -> run -> rows), read once and shared (see
   * `readExplorerReportRows`); default: each report page reads its own.
   */
  reportRows?: () => Promise<Map<string, Map<string, ReportRows>>>;
  /**
   * Every topic's compare page rows, read once and shared (see
   * `readExplorerCompareRows`); default: each compare page reads its own.
   */
  compareRows?: () => Promise<Map<string, CompareRows>>;
}

/** A running explorer. */
export interface ExplorerServer {
  /** Base URL, e.g. `http://127.0.0.1:8765`. */
  url: string;
  /**
   * Resolves when the server has stopped: every request answered, the rows read
   * in the background interrupted or done, and every connection to the workspace
   * and its database closed (the file can be opened read-write at once).
   */
  finished: Promise<void>;
  /** Stops the server and closes the workspace; resolves as `finished` does. */
  shutdown(): Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

const TYPES: Record<string, string> = {
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".html": "text/html; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".tex": "text/plain; charset=utf-8",
  ".json": "application/json",
};

/** Whether an address is loopback (the only kind bound without `allowRemote`). */
export function isLoopback(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/**
 * A page with the explorer's sort script, the only script allowed to run (by a
 * nonce made for this response): nothing else inline may run.
 */
function html(body: string, status = 200): Response {
  const nonce = newNonce();
  const at = body.lastIndexOf("</body>");
  const withScript = at < 0
    ? body
    : body.slice(0, at) + script(nonce, SORT_SCRIPT) + body.slice(at);
  return new Response(withScript, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy":
        `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'`,
      "x-content-type-options": "nosniff",
    },
  });
}

function notFound(what: string): Response {
  return html(page("Not found", `<p>${esc(what)}</p>`), 404);
}

/** 421 for a `Host` this server does not answer to (a DNS rebinding, or a wrong link). */
function misdirected(request: Request): Response {
  return html(
    page(
      "Wrong address",
      `<p>This server does not answer to the host ${esc(requestHost(request) || "(none)")}. ` +
        "Use the link the server printed, or start it with --public-url naming this address.</p>",
      [],
      { home: false },
    ),
    421,
  );
}

/** The path's segments decoded, or undefined when one is not valid percent-encoding. */
function segments(pathname: string): string[] | undefined {
  try {
    return pathname.split("/").filter(Boolean).map((p) => decodeURIComponent(p));
  } catch {
    return undefined;
  }
}

function badPath(pathname: string): Response {
  return html(page("Bad address", `<p>The address ${esc(pathname)} is not valid.</p>`), 400);
}

async function file(dir: string, rel: string): Promise<Response> {
  const path = normalize(join(dir, rel));
  const inside = ["tables", "figures"].some((sub) => path.startsWith(join(dir, sub) + sep));
  if (!inside) return notFound(`No file "${rel}" in this experiment's tables or figures`);
  try {
    const bytes = await Deno.readFile(path);
    const name = path.endsWith(".vl.json") ? ".json" : extname(path);
    if (name === ".html") {
      // A saved table page: its own inline scripts are dropped and the explorer's
      // sort script, allowed by nonce, makes its tables sortable.
      const nonce = newNonce();
      const text = new TextDecoder().decode(bytes).replace(/<script\b[\s\S]*?<\/script>/gi, "");
      const at = text.lastIndexOf("</body>");
      const sortable = script(nonce, SORT_SCRIPT);
      return new Response(
        at < 0 ? text + sortable : text.slice(0, at) + sortable + text.slice(at),
        {
          headers: {
            "content-type": TYPES[name],
            "content-security-policy":
              `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src 'self' data:`,
            "x-content-type-options": "nosniff",
          },
        },
      );
    }
    return new Response(bytes, {
      headers: {
        "content-type": TYPES[name] ?? "application/octet-stream",
        "content-security-policy":
          "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:",
        "x-content-type-options": "nosniff",
      },
    });
  } catch {
    return notFound(`No file "${rel}" in this experiment's tables or figures`);
  }
}

/**
 * Answers one request of the explorer (exported for tests and embedding).
 *
 * Routes: `/` the experiment; `/topic/<topic>[?k=N]`; `/report/<run>/<topic>`;
 * `/compare/<topic>?a=<run>&b=<run>`; `/files/tables/...` and `/files/figures/...`
 * the saved tables and figures. Path segments are URL-encoded ids.
 *
 * With `annotate`, only the annotation pages answer (see `annotateResponse`): the
 * explorer would show annotators the run names.
 *
 * @param ws The workspace (read-only; read-write with `annotate`).
 * @param request The request.
 * @param opts `annotate` and the server's origin.
 * @returns The response.
 */
export async function explorerResponse(
  ws: Workspace,
  request: Request,
  opts: ExplorerResponseOptions = {},
): Promise<Response> {
  if (opts.allowed && !hostAllowed(request, opts.allowed)) return misdirected(request);
  if (opts.annotate) {
    try {
      return await annotateResponse(ws, request, {
        origin: opts.origin,
        origins: opts.allowed?.origins,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return html(page("Error", `<p>${esc(message)}</p>`, [], { home: false }), 500);
    }
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response("The explorer only reads: GET pages", { status: 405 });
  }
  const url = new URL(request.url);
  const parts = segments(url.pathname);
  if (!parts) return badPath(url.pathname);
  const [kind, ...rest] = parts;
  try {
    if (!kind) return html(await experimentPage(ws, ws.dir));
    if (kind === "topic" && rest.length === 1) {
      const asked = Number(url.searchParams.get("k") ?? 10);
      const k = Number.isInteger(asked) && asked > 0 && asked <= 1000 ? asked : 10;
      const shared = opts.topicRows && await opts.topicRows(k);
      const rows = shared?.get(rest[0]);
      const body = shared && !rows ? undefined : await topicPage(ws, rest[0], {
        k,
        // The shared rows hold at least k passages per run: the page shows the first k.
        rows: rows && {
          ...rows,
          rankings: new Map([...rows.rankings].map(([run, list]) => [run, list.slice(0, k)])),
        },
      });
      return body ? html(body) : notFound(`No topic "${rest[0]}" in this workspace`);
    }
    if (kind === "report" && rest.length === 2) {
      const shared = opts.reportRows && await opts.reportRows();
      const rows = shared?.get(rest[1])?.get(rest[0]);
      const body = shared && !rows ? undefined : await reportPage(ws, rest[0], rest[1], { rows });
      return body ? html(body) : notFound(`No report of run "${rest[0]}" on topic "${rest[1]}"`);
    }
    if (kind === "compare" && rest.length === 1) {
      const shared = opts.compareRows && await opts.compareRows();
      const rows = shared?.get(rest[0]);
      const body = shared && !rows ? undefined : await comparePage(ws, rest[0], {
        a: url.searchParams.get("a") ?? undefined,
        b: url.searchParams.get("b") ?? undefined,
      }, { rows });
      return body ? html(body) : notFound(`No such reports on topic "${rest[0]}"`);
    }
    if (kind === "files" && rest.length >= 2) return await file(ws.dir, rest.join("/"));
    return notFound(`No page at ${url.pathname}`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return html(page("Error", `<p>${esc(message)}</p>`), 500);
  }
}

/**
 * What the workspace file and its write-ahead log are now (modification time and
 * size): a page rendered under one stamp is the page of every later request with
 * the same stamp, since nothing was written in between.
 */
async function fileStamp(dir: string): Promise<string> {
  const stamp = async (path: string) => {
    try {
      const info = await Deno.stat(path);
      return `${info.mtime?.getTime() ?? ""}:${info.size}`;
    } catch {
      return "-";
    }
  };
  const path = join(dir, "workspace.duckdb");
  return `${await stamp(path)}|${await stamp(`${path}.wal`)}`;
}

/** At most this many characters of rendered pages are kept (about 64 MB of text). */
const MAX_CACHED_CHARS = 32 * 1024 * 1024;

/**
 * Explorer pages already rendered, by path and query, with the stamp of the
 * workspace they show (least recently used dropped beyond `size` pages or
 * {@linkcode MAX_CACHED_CHARS}). A page served
 * again gets a nonce of its own.
 */
class PageCache {
  #pages = new Map<string, { stamp: string; body: string; headers: Headers; nonce: string }>();

  #chars = 0;

  constructor(readonly size: number) {}

  #drop(key: string): void {
    const page = this.#pages.get(key);
    if (!page) return;
    this.#chars -= page.body.length;
    this.#pages.delete(key);
  }

  get(key: string): { stamp: string; fresh(): Response } | undefined {
    const page = this.#pages.get(key);
    if (!page) return undefined;
    this.#pages.delete(key);
    this.#pages.set(key, page);
    return {
      stamp: page.stamp,
      fresh: () => {
        const nonce = newNonce();
        const headers = new Headers(page.headers);
        const policy = headers.get("content-security-policy") ?? "";
        headers.set("content-security-policy", policy.replace(page.nonce, nonce));
        return new Response(page.body.replace(`nonce="${page.nonce}"`, `nonce="${nonce}"`), {
          status: 200,
          headers,
        });
      },
    };
  }

  /** Keeps a rendered page; returns a response with the same content. */
  async put(key: string, stamp: string, response: Response): Promise<Response> {
    const body = await response.text();
    const nonce = response.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
    if (nonce) {
      this.#drop(key);
      this.#pages.set(key, { stamp, body, headers: response.headers, nonce });
      this.#chars += body.length;
      while (this.#pages.size > this.size || this.#chars > MAX_CACHED_CHARS) {
        this.#drop(this.#pages.keys().next().value!);
      }
    }
    return new Response(body, { status: response.status, headers: response.headers });
  }
}

/**
 * 503 while another process writes the workspace: the page can be reloaded (or
 * the answers sent again) later.
 */
function busy(error: unknown, write = false): Response {
  const message = error instanceof Error ? error.message : String(error);
  const what = write
    ? "Your answers were not saved: another program is writing the workspace. Go back " +
      "and save them again in a moment."
    : "The workspace cannot be read now; reload in a moment.";
  const response = html(
    page(
      "Workspace busy",
      `<p>${esc(what)}</p><p class="muted">${esc(message)}</p>`,
      [],
      { home: false },
    ),
    503,
  );
  response.headers.set("retry-after", "2");
  return response;
}

/**
 * Serves the explorer of a workspace until stopped. The workspace is opened
 * read-only for the requests being answered and closed between them, so a
 * pipeline (`crux run`) can write while the server is up (a page asked while it
 * writes gets 503 and can be reloaded). A page asked again while the workspace
 * file and its log are unchanged is served as rendered before (with a new nonce).
 * With `annotate` the workspace is opened the same way, read-write only while
 * answers are being saved (so `crux run` or `crux annotate export` can open it
 * between requests; an answer posted while another process holds the file gets
 * 503 with `Retry-After`); each request works on a connection of its own, and an
 * answer is acknowledged only once committed.
 *
 * Requests must name the server in `Host` (loopback under 127.0.0.1, localhost or
 * [::1], the address bound, the machine's addresses when bound to 0.0.0.0, and
 * `publicUrl`); another `Host` gets 421. Answers must come from the same origins.
 *
 * @param dir The workspace folder.
 * @param opts Port, address, public URL, signal, `onListen`.
 * @returns The running server.
 * @throws {Deno.errors.PermissionDenied} Binding a non-loopback address without `allowRemote`.
 * @throws {Deno.errors.AddrInUse} When the port is taken (the message names it).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveWorkspace } from "@lib/serve/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir(); // normally outputs/<experiment>
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * ws.close();
 * const server = await serveWorkspace(dir, { port: 0 }); // any free port
 * const res = await fetch(`${server.url}/topic/sample-01`);
 * assert.equal(res.status, 200);
 * await res.body?.cancel();
 * await server.shutdown();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function serveWorkspace(
  dir: string,
  opts: ServeOptions = {},
): Promise<ExplorerServer> {
  const hostname = opts.hostname ?? "127.0.0.1";
  if (!isLoopback(hostname) && !opts.allowRemote) {
    throw new Deno.errors.PermissionDenied(
      `Refusing to serve on ${hostname}: anyone who can reach that address could read the ` +
        "workspace. Bind to 127.0.0.1 (the default), or pass --allow-remote to accept that",
    );
  }
  // Fail at start, not at the first request, on a folder without a workspace or
  // of another schema; a writer holding the file now only delays the check. The
  // file is held only while requests are answered (read-write while saving answers).
  try {
    (await openWorkspace(dir, { readOnly: !opts.annotate })).close();
  } catch (error) {
    if (!(error instanceof WorkspaceStorageError && error.fault === "locked")) throw error;
  }
  const lease = new WorkspaceLease(dir);
  let url = "";
  let allowed: Origins | undefined;
  const port = opts.port ?? 8765;
  const handler = async (request: Request): Promise<Response> => {
    if (allowed && !hostAllowed(request, allowed)) return misdirected(request);
    const answer = (ws: Workspace, shared?: ExplorerResponseOptions) =>
      explorerResponse(ws, request, {
        annotate: opts.annotate,
        origin: url,
        allowed,
        ...shared,
      });
    if (opts.annotate) {
      const mode = request.method === "POST" ? "write" : "read";
      let opened = false;
      try {
        return await lease.use(mode, (ws) => answer(ws), { onOpen: () => opened = true });
      } catch (error) {
        if (!opened) return busy(error, mode === "write");
        throw error;
      }
    }
    const key = new URL(request.url).pathname + new URL(request.url).search;
    const cacheable = request.method === "GET" && !key.startsWith("/files/");
    const before = cacheable ? await fileStamp(dir) : "";
    const hit = cacheable ? pages.get(key) : undefined;
    if (hit && hit.stamp === before) return hit.fresh();
    // The same page being rendered for another request: wait for it, not render twice.
    const rendering = cacheable ? inFlight.get(`${key}\u0000${before}`) : undefined;
    if (rendering) {
      await rendering;
      const done = pages.get(key);
      if (done && done.stamp === before) return done.fresh();
    }
    let finish = () => {};
    if (cacheable && !rendering) {
      const id = `${key}\u0000${before}`;
      inFlight.set(id, new Promise<void>((resolve) => finish = resolve));
      const settle = finish;
      finish = () => {
        inFlight.delete(id);
        settle();
      };
    }
    let opened = false;
    try {
      // Topic, report and compare pages share the rows of every page of their kind,
      // read once while the file is unchanged.
      const unchanged = async () => before === await fileStamp(dir);
      const response = await lease.use(
        "read",
        (ws) =>
          answer(
            ws,
            cacheable
              ? {
                topicRows: (k) => topics.get(before, k, ws, unchanged),
                reportRows: () => reports.get(before, ws, unchanged),
                compareRows: () => compares.get(before, ws, unchanged),
              }
              : undefined,
          ),
        { onOpen: () => opened = true },
      );
      if (cacheable && response.status === 200 && before === await fileStamp(dir)) {
        return await pages.put(key, before, response);
      }
      return response;
    } catch (error) {
      if (!opened) return busy(error);
      throw error;
    } finally {
      finish();
    }
  };
  const pages = new PageCache(256);
  const topics = new TopicSnapshots();
  const reports = new RowSnapshot(readExplorerReportRows);
  const compares = new RowSnapshot(readExplorerCompareRows);
  if (!opts.annotate) {
    // Every topic's, report's and compare page's rows read now, in the background
    // (each kind on a connection of its own), so first visits are rendered from
    // memory (a writer holding the file: later). After a write, the first page of
    // each kind reads them again for every page of the kind: a read begun between
    // requests would hold the file that a pipeline is waiting to write.
    const stamp = await fileStamp(dir);
    const unchanged = async () => stamp === await fileStamp(dir);
    const reads: ((ws: Workspace) => Promise<unknown>)[] = [
      (ws: Workspace) => topics.get(stamp, SNAPSHOT_K, ws, unchanged),
      (ws: Workspace) => reports.get(stamp, ws, unchanged),
      (ws: Workspace) => compares.get(stamp, ws, unchanged),
    ];
    // Shutting down interrupts them and waits for their connections to close.
    for (const read of reads) lease.use("read", read, { background: true }).catch(() => {});
  }
  const inFlight = new Map<string, Promise<void>>();
  let server: Deno.HttpServer;
  try {
    server = Deno.serve({
      hostname,
      port,
      signal: opts.signal,
      onListen: ({ port }) => {
        url = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
        allowed = serverOrigins(hostname, port, opts.publicUrl);
        opts.onListen?.(url);
      },
    }, handler);
  } catch (error) {
    // Nothing is served: the reads begun above end before the error is thrown.
    await lease.close();
    if (error instanceof Deno.errors.AddrInUse) {
      throw new Deno.errors.AddrInUse(
        `Cannot serve on ${hostname}:${port}: port ${port} is already in use by another ` +
          "program; stop it, or choose another port with --port (0 picks a free one)",
      );
    }
    throw error;
  }
  // Requests end before the server is finished; the workspace is closed after them
  // and after the background reads, so nothing of it is open once this resolves.
  const finished = server.finished.finally(() => lease.close());
  return {
    get url() {
      return url;
    },
    finished,
    async shutdown() {
      await server.shutdown();
      await finished;
    },
  };
}
