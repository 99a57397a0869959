/**
 * The explorer's HTTP server: Deno's own server over one workspace, opened
 * read-only, with one stable URL per page.
 *
 * @module
 */
import { extname, join, normalize, sep } from "node:path";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import { comparePage } from "./compare_page.ts";
import { experimentPage } from "./experiment_page.ts";
import { reportPage } from "./report_page.ts";
import { topicPage } from "./topic_page.ts";
import { esc, page } from "./_html.ts";
import { annotateResponse } from "./annotate_response.ts";

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
   * Serve the annotation pages (`/annotate/<token>`) instead of the explorer, with
   * the workspace opened read-write so every answer is saved when posted. Default false.
   */
  annotate?: boolean;
}

/** Options of {@linkcode explorerResponse}. */
export interface ExplorerResponseOptions {
  /** Answer `/annotate/...` (and only that); the workspace must be read-write. */
  annotate?: boolean;
  /** The server's own origin, which write requests must come from. */
  origin?: string;
}

/** A running explorer. */
export interface ExplorerServer {
  /** Base URL, e.g. `http://127.0.0.1:8765`. */
  url: string;
  /** Resolves when the server has stopped and the workspace is closed. */
  finished: Promise<void>;
  /** Stops the server and closes the workspace. */
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

function html(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      // Pages carry no script of their own: nothing inline may run.
      "content-security-policy": "default-src 'self'; script-src 'none'; style-src 'unsafe-inline'",
      "x-content-type-options": "nosniff",
    },
  });
}

function notFound(what: string): Response {
  return html(page("Not found", `<p>${esc(what)}</p>`), 404);
}

async function file(dir: string, rel: string): Promise<Response> {
  const path = normalize(join(dir, rel));
  const inside = ["tables", "figures"].some((sub) => path.startsWith(join(dir, sub) + sep));
  if (!inside) return notFound(`No file "${rel}" in this experiment's tables or figures`);
  try {
    const bytes = await Deno.readFile(path);
    const name = path.endsWith(".vl.json") ? ".json" : extname(path);
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
  if (opts.annotate) {
    try {
      return await annotateResponse(ws, request, { origin: opts.origin });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return html(page("Error", `<p>${esc(message)}</p>`, [], { home: false }), 500);
    }
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response("The explorer only reads: GET pages", { status: 405 });
  }
  const url = new URL(request.url);
  const parts = url.pathname.split("/").filter(Boolean).map((p) => decodeURIComponent(p));
  const [kind, ...rest] = parts;
  try {
    if (!kind) return html(await experimentPage(ws, ws.dir));
    if (kind === "topic" && rest.length === 1) {
      const k = Number(url.searchParams.get("k") ?? 10);
      const body = await topicPage(ws, rest[0], {
        k: Number.isInteger(k) && k > 0 && k <= 1000 ? k : 10,
      });
      return body ? html(body) : notFound(`No topic "${rest[0]}" in this workspace`);
    }
    if (kind === "report" && rest.length === 2) {
      const body = await reportPage(ws, rest[0], rest[1]);
      return body ? html(body) : notFound(`No report of run "${rest[0]}" on topic "${rest[1]}"`);
    }
    if (kind === "compare" && rest.length === 1) {
      const body = await comparePage(ws, rest[0], {
        a: url.searchParams.get("a") ?? undefined,
        b: url.searchParams.get("b") ?? undefined,
      });
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
 * Serves the explorer of a workspace until stopped. The workspace is opened
 * read-only, so a pipeline can keep writing elsewhere only after the server
 * stops (the database allows one writer or several readers).
 *
 * @param dir The workspace folder.
 * @param opts Port, address, signal, `onListen`.
 * @returns The running server.
 * @throws {Deno.errors.PermissionDenied} Binding a non-loopback address without `allowRemote`.
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
  const ws = await openWorkspace(dir, { readOnly: !opts.annotate });
  let url = "";
  const server = Deno.serve({
    hostname,
    port: opts.port ?? 8765,
    signal: opts.signal,
    onListen: ({ port }) => {
      url = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
      opts.onListen?.(url);
    },
  }, (request) => explorerResponse(ws, request, { annotate: opts.annotate, origin: url }));
  const finished = server.finished.finally(() => ws.close());
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
