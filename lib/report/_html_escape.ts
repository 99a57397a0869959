/**
 * Private: escape text for HTML content and attribute values.
 *
 * @module
 */

/** Replace `&`, `<`, `>` and `"` by their HTML entities. */
export function htmlEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}
