// Redirect policy of model endpoints; private to `@lib/llm`.
import { TransportError } from "./_retry.ts";

/** The most same-origin redirects followed for one request. */
export const MAX_REDIRECT_HOPS = 5;

const publicOrigin = (u: URL) => `${u.protocol}//${u.host}`;

/**
 * Where a response sends a request to `url` under the same-origin policy: the
 * target URL, or `null` when it is not a redirect (not 3xx, or no Location).
 *
 * @throws {TransportError} (permanent) naming both origins when the target is another origin.
 */
export function sameOriginTarget(
  status: number,
  location: string | null,
  url: string,
): string | null {
  if (status < 300 || status >= 400 || !location) return null;
  const from = new URL(url);
  const to = new URL(location, from);
  if (to.origin !== from.origin) {
    throw new TransportError({
      retryable: false,
      status,
      message:
        `Refusing to follow a redirect (HTTP ${status}) from ${
          publicOrigin(from)
        } to another origin, ${publicOrigin(to)}: set the base URL to the new address, ` +
        "or allow redirects (followRedirects, CRUX_FOLLOW_REDIRECTS=1)",
    });
  }
  return to.href;
}

/** The permanent error for a chain of more than {@link MAX_REDIRECT_HOPS} same-origin redirects ending at `url`. */
export function tooManyRedirects(url: string): TransportError {
  return new TransportError({
    retryable: false,
    message: `More than ${MAX_REDIRECT_HOPS} redirects from ${url}; check the base URL`,
  });
}

/**
 * Wraps `fetch` so redirects are followed only within the endpoint's origin (a
 * request carrying the API key never leaves for another host), unless `follow`
 * allows every redirect. Refusals are permanent transport errors naming both origins.
 */
export function sameOriginRedirects(fetcher: typeof fetch, follow: boolean): typeof fetch {
  if (follow) return fetcher;
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    let url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    for (let hop = 0; hop <= MAX_REDIRECT_HOPS; hop++) {
      const res = await fetcher(url, { ...init, redirect: "manual" });
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location) return res;
      await res.body?.cancel();
      url = sameOriginTarget(res.status, location, url)!;
    }
    throw tooManyRedirects(url);
  };
}
