// trec_eval's order of document ids (UTF-8 byte order), re-exported for the evaluator.

/**
 * trec_eval's order for document ids (UTF-8 byte order); the one implementation
 * lives in `@lib/formats`.
 */
export { compareBytes } from "@lib/formats/compare_bytes.ts";
