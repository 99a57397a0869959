// Prompt template files: header fields, messages, declared placeholders and output format.

import type { ChatMessage, SamplingParams } from "./types.ts";

/** A prompt template: versioned messages with declared placeholders and output format. */
export interface PromptTemplate {
  id: string;
  version: number;
  /** `id@version`, recorded with every call and part of the cache key. */
  ref: string;
  description: string;
  /** Placeholder names, as declared (each used at least once in the messages). */
  placeholders: string[];
  /** Expected output format, in words. */
  output: string;
  /** Sampling parameters declared by the template (`temperature`, `top_p`, `max_tokens`, `seed`). */
  params: SamplingParams;
  /** Messages with `{{name}}` placeholders. */
  messages: ChatMessage[];
  /** Where the template came from (file path or `inline`). */
  source: string;
}

const ROLES = new Set(["system", "user", "assistant"]);
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const NUMERIC: Record<string, keyof SamplingParams> = {
  temperature: "temperature",
  top_p: "topP",
  max_tokens: "maxTokens",
  seed: "seed",
};

/**
 * Parses a template file: a header between `---` lines with `key: value` fields
 * (`id`, `version`, `description`, `placeholders` (comma-separated), `output`,
 * and optionally `temperature`, `top_p`, `max_tokens`, `seed`), then messages,
 * each introduced by a line `@@ system`, `@@ user` or `@@ assistant`.
 * Placeholders are written `{{name}}`. Pure: no I/O.
 *
 * @param text The file's text.
 * @param opts `source`: name used in error messages (default `inline`).
 * @returns The template.
 * @throws {SyntaxError} When the header or a message marker is malformed, a required
 *   field is missing, a placeholder is used but not declared, or declared but not used.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const t = parseTemplate("---\nid: echo\nversion: 1\nplaceholders: x\noutput: text\n---\n@@ user\nSay {{x}}\n");
 * assert.equal(t.ref, "echo@1");
 * ```
 */
export function parseTemplate(text: string, opts: { source?: string } = {}): PromptTemplate {
  const source = opts.source ?? "inline";
  const fail = (line: number, message: string): never => {
    throw new SyntaxError(`Cannot read prompt template ${source}:${line}: ${message}`);
  };
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines[0].trim() !== "---") {
    fail(1, 'expected a header starting with "---"; add the header fields');
  }
  const end = lines.indexOf("---", 1);
  if (end < 0) fail(1, 'header is not closed by a "---" line');
  const fields: Record<string, string> = {};
  for (let i = 1; i < end; i++) {
    if (!lines[i].trim()) continue;
    const m = /^([a-z_]+)\s*:\s*(.*)$/.exec(lines[i]);
    if (!m) fail(i + 1, `expected "key: value", found "${lines[i]}"`);
    fields[m![1]] = m![2].trim();
  }
  for (const k of ["id", "version", "placeholders", "output"]) {
    if (fields[k] === undefined) fail(1, `header field "${k}" is missing; add "${k}: ..."`);
  }
  const version = Number(fields.version);
  if (!Number.isInteger(version) || version < 1) {
    fail(1, `field "version" must be a positive integer, found "${fields.version}"`);
  }
  const params: SamplingParams = {};
  for (const [field, name] of Object.entries(NUMERIC)) {
    if (fields[field] === undefined) continue;
    const v = Number(fields[field]);
    if (!Number.isFinite(v)) fail(1, `field "${field}" must be a number, found "${fields[field]}"`);
    (params as Record<string, number>)[name] = v;
  }
  const messages: ChatMessage[] = [];
  const lineOf: number[] = [];
  for (let i = end + 1; i < lines.length; i++) {
    const m = /^@@\s*(\S+)\s*$/.exec(lines[i]);
    if (m) {
      if (!ROLES.has(m[1])) fail(i + 1, `unknown role "${m[1]}"; use system, user or assistant`);
      messages.push({ role: m[1] as ChatMessage["role"], content: "" });
      lineOf.push(i + 1);
    } else if (messages.length) {
      const last = messages[messages.length - 1];
      last.content += (last.content ? "\n" : "") + lines[i];
    } else if (lines[i].trim()) {
      fail(i + 1, 'text before the first message; start messages with "@@ user" or "@@ system"');
    }
  }
  if (!messages.length) fail(end + 2, 'no messages; add "@@ user" followed by the prompt');
  const declared = fields.placeholders.split(",").map((s) => s.trim()).filter(Boolean);
  const used = new Set<string>();
  messages.forEach((m, i) => {
    m.content = m.content.replace(/\s+$/, "");
    for (const [, name] of m.content.matchAll(PLACEHOLDER)) {
      if (!declared.includes(name)) {
        fail(lineOf[i], `placeholder "{{${name}}}" is not declared; add it to "placeholders:"`);
      }
      used.add(name);
    }
  });
  for (const name of declared) {
    if (!used.has(name)) fail(1, `placeholder "${name}" is declared but never used`);
  }
  return {
    id: fields.id,
    version,
    ref: `${fields.id}@${version}`,
    description: fields.description ?? "",
    placeholders: declared,
    output: fields.output,
    params,
    messages,
    source,
  };
}
