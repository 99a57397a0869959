/** Content keys of judged texts; private to `@lib/subq`. */

/** SHA-256 hex of a text (the key of its coverage judgments). */
export async function textKey(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
