// Redirect policy of model endpoints; private to `@lib/llm`.
import { TransportError } from "./_retry.ts";

const MAX_HOPS = 5;

const publicOrigin = (u: URL) => `${u.protocol}//${u.host}`;

/**
 * Wraps `fetch` so redirects are followed only within the endpoint's origin (a
 * request carrying the API key never leaves for another host), unless `follow`
 * allows every redirect. Refusals are permanent transport errors naming both origins.
 */
export function sameOriginRedirects(fetcher: typeof fetch, follow: boolean): typeof fetch {
  if (follow) return fetcher;
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    let url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    for (let hop = 0; hop <= MAX_HOPS; hop++) {
      const res = await fetcher(url, { ...init, redirect: "manual" });
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location) return res;
      await res.body?.cancel();
      const from = new URL(url);
      const to = new URL(location, from);
      if (to.origin !== from.origin) {
        throw new TransportError({
          retryable: false,
          status: res.status,
          message:
            `Refusing to follow a redirect (HTTP ${res.status}) from ${
              publicOrigin(from)
            } to another origin, ${publicOrigin(to)}: set the base URL to the new address, ` +
            "or allow redirects (followRedirects, CRUX_FOLLOW_REDIRECTS=1)",
        });
      }
      url = to.href;
    }
    throw new TransportError({
      retryable: false,
      message: `More than ${MAX_HOPS} redirects from ${url}; check the base URL`,
    });
  };
}
