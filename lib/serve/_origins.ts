// Private to `@lib/serve`: the hosts and origins a server answers to. A page is served
// only to a request whose `Host` names this server, and an answer is saved only from
// a page of one of its origins: loopback under any of its names, the address bound,
// the machine's own addresses when bound to all of them, and the public URL.

/** The hosts (`name:port`) and origins (`http://name:port`) a server answers to. */
export interface Origins {
  /** Allowed `Host` values, lower case, with the port unless it is the scheme's default. */
  hosts: ReadonlySet<string>;
  /** Allowed `Origin` values. */
  origins: ReadonlySet<string>;
}

const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** `host` as `new URL` writes it (lower case, IPv6 in brackets, default port left out). */
function hostOf(scheme: string, name: string, port: number | string): string | undefined {
  try {
    const bracketed = name.includes(":") && !name.startsWith("[") ? `[${name}]` : name;
    return new URL(`${scheme}//${bracketed}:${port}`).host;
  } catch {
    return undefined;
  }
}

/**
 * The hosts and origins of a server bound to `hostname:port`, reached also through
 * `publicUrl` (e.g. a reverse proxy or the machine's name for remote annotators).
 */
export function serverOrigins(hostname: string, port: number, publicUrl?: string): Origins {
  const names = new Set(LOOPBACK_NAMES);
  if (WILDCARD.has(hostname)) {
    try {
      for (const i of Deno.networkInterfaces()) names.add(i.address);
    } catch {
      // Without permission to list the interfaces, only loopback and the public URL.
    }
  } else names.add(hostname);
  const hosts = new Set<string>();
  const origins = new Set<string>();
  for (const name of names) {
    const host = hostOf("http:", name, port);
    if (!host) continue;
    hosts.add(host);
    origins.add(`http://${host}`);
  }
  if (publicUrl) {
    const u = new URL(publicUrl);
    hosts.add(u.host);
    origins.add(u.origin);
  }
  return { hosts, origins };
}

/**
 * Checks a public URL given on the command line: http or https, with no path, query
 * or fragment (the pages live at the root).
 *
 * @param value The URL, e.g. `http://annotate.example:8765`.
 * @returns Its origin.
 * @throws {RangeError} For anything but an http(s) origin.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkPublicUrl } from "@lib/serve/mod.ts";
 * assert.equal(checkPublicUrl("http://Lab.example:8765/"), "http://lab.example:8765");
 * assert.throws(() => checkPublicUrl("http://lab.example/annotate"), RangeError);
 * ```
 */
export function checkPublicUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new RangeError(
      `--public-url must be a URL such as http://annotate.example:8765, got "${value}"`,
    );
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new RangeError(`--public-url must start with http:// or https://, got "${value}"`);
  }
  if ((u.pathname !== "/" && u.pathname !== "") || u.search || u.hash || u.username) {
    throw new RangeError(
      `--public-url must be an origin only (scheme, host and port), got "${value}"`,
    );
  }
  return u.origin;
}

/** The request's `Host`, normalised like `URL.host`; the URL's host when the header is absent. */
export function requestHost(request: Request): string {
  const given = request.headers.get("host");
  if (given === null) return new URL(request.url).host;
  try {
    return new URL(`http://${given}`).host;
  } catch {
    return "";
  }
}

/** Whether the request's `Host` is one of `allowed`. */
export function hostAllowed(request: Request, allowed: Origins): boolean {
  return allowed.hosts.has(requestHost(request));
}

/**
 * Whether a write comes from one of the allowed origins: its `Origin`, or without
 * one its `Referer`'s origin (a missing header is refused).
 */
export function originAllowed(request: Request, allowed: ReadonlySet<string>): boolean {
  const given = request.headers.get("origin");
  if (given !== null) return allowed.has(given.toLowerCase());
  const referer = request.headers.get("referer");
  if (!referer) return false;
  try {
    return allowed.has(new URL(referer).origin);
  } catch {
    return false;
  }
}
