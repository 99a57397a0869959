/**
 * trec_eval's order for document ids (UTF-8 byte order); the one implementation
 * lives in `@lib/formats`.
 */
export { compareBytes } from "@lib/formats/compare_bytes.ts";
