/**
 * DUC 2004 task 2 (NIST, licensed): document files in one folder per cluster
 * (`d30001t/`), each holding SGML-like `<DOC><DOCNO>..</DOCNO>..<TEXT>..</TEXT></DOC>`
 * records, and human summaries in a models folder named like `D30001.M.100.T.A`
 * (cluster D30001, assessor A). The workbench never ships DUC text; these readers
 * load what the user points them at.
 *
 * @module
 */
import { join } from "node:path";
import { cannotRead, readText } from "./_lines.ts";
import { Repeats, textHash } from "./_repeats.ts";
import { Problems } from "./_problems.ts";
import { InputError } from "./input_error.ts";

/** One news article. */
export interface DucDocument {
  docNo: string;
  headline?: string;
  text: string;
}

/** A cluster folder and its articles (sorted by file name, then file order). */
export interface DucCluster {
  /** Folder name, e.g. `d30001t`. */
  cluster: string;
  documents: DucDocument[];
}

/** One human summary. */
export interface DucSummary {
  /** Cluster key, lower case without the folder suffix, e.g. `d30001`. */
  cluster: string;
  /** Assessor id (the last part of the file name). */
  assessor: string;
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function element(body: string, tag: string): string | undefined {
  return new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, "i").exec(body)?.[1];
}

/** Plain text of an SGML fragment: tags dropped, entities decoded, paragraphs kept. */
function plain(fragment: string): string {
  const text = fragment
    .replace(/<\/?P(?:\s[^>]*)?>/gi, "\n\n")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ENTITIES[e]);
  return text
    .split(/\n\s*\n|\n(?=[ \t]{2,}|\t)/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter((p) => p !== "")
    .join("\n\n");
}

/**
 * Key shared by a cluster folder and its summaries: `d30001t` and `D30001` both give `d30001`.
 *
 * @param name A folder name or the cluster part of a summary file name.
 * @returns The lower-case key.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(ducClusterKey("d30001t"), "d30001");
 * ```
 */
export function ducClusterKey(name: string): string {
  return (/^([a-z]+\d+)/i.exec(name)?.[1] ?? name).toLowerCase();
}

/**
 * Parses the `<DOC>` records of one document file.
 *
 * @param text The file's text.
 * @param opts `file` names the input in error messages.
 * @returns The articles in file order.
 * @throws {InputError} Listing records without `<DOCNO>` or `<TEXT>`, or a file with no `<DOC>`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseDucDocuments("<DOC><DOCNO> X1 </DOCNO><TEXT>Hello &amp; bye.</TEXT></DOC>", { file: "X1" }), [{ docNo: "X1", text: "Hello & bye." }]);
 * ```
 */
export function parseDucDocuments(text: string, opts: { file: string }): DucDocument[] {
  return decodeDucDocuments(text, opts.file).map((d) => d.doc);
}

/** The articles of a DUC file with the line each `<DOC>` starts on. */
function decodeDucDocuments(text: string, file: string): { doc: DucDocument; line: number }[] {
  const problems = new Problems(file);
  const out: { doc: DucDocument; line: number }[] = [];
  for (const m of text.matchAll(/<DOC>([\s\S]*?)<\/DOC>/gi)) {
    const line = text.slice(0, m.index).split("\n").length;
    const docNo = element(m[1], "DOCNO")?.trim();
    const body = element(m[1], "TEXT");
    if (!docNo) problems.add(line, "DOCNO", "missing or empty; every <DOC> needs a <DOCNO>");
    if (body === undefined) {
      problems.add(line, "TEXT", "missing; every <DOC> needs a <TEXT> element");
    }
    if (!docNo || body === undefined) continue;
    const headline = element(m[1], "HEADLINE");
    const doc: DucDocument = { docNo, text: plain(body) };
    if (headline !== undefined && plain(headline) !== "") doc.headline = plain(headline);
    out.push({ doc, line });
  }
  if (out.length === 0 && problems.total === 0) {
    problems.add(0, undefined, "no <DOC> record found; is this a DUC document file?");
  }
  problems.throwIfAny();
  return out;
}

async function entries(dir: string): Promise<Deno.DirEntry[]> {
  const out: Deno.DirEntry[] = [];
  try {
    for await (const e of Deno.readDir(dir)) if (!e.name.startsWith(".")) out.push(e);
  } catch (error) {
    throw cannotRead(dir, error);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Reads the document folders of DUC 2004 task 2 (one sub-folder per cluster).
 * An article whose `<DOCNO>` an earlier article of the cluster has is dropped
 * when it is the same article (counted through `onDuplicates`, so it takes no
 * position), and an error naming both places when it differs.
 *
 * @param dir Folder holding the cluster folders (`d30001t/`, ...).
 * @param opts `onDuplicates` receives the number of repeated articles dropped.
 * @returns The clusters sorted by folder name, articles sorted by file name.
 * @throws {InputError} Listing malformed document files and conflicting repeats; also
 *   when no cluster folder is found.
 * @example
 * ```ts ignore
 * // Not run as a test: it reads DUC 2004, which the user brings.
 * const clusters = await readDucClusters("duc2004/docs");
 * ```
 */
export async function readDucClusters(
  dir: string,
  opts: { onDuplicates?: (count: number) => void } = {},
): Promise<DucCluster[]> {
  const clusters: DucCluster[] = [];
  const problems = new Problems(dir);
  let dropped = 0;
  for (const c of await entries(dir)) {
    if (!c.isDirectory) continue;
    const documents: DucDocument[] = [];
    const repeats = new Repeats();
    for (const f of await entries(join(dir, c.name))) {
      if (!f.isFile) continue;
      const path = join(dir, c.name, f.name);
      try {
        const found = new Problems(path);
        for (const { doc, line } of decodeDucDocuments(await readText(path), path)) {
          const what = `document ${JSON.stringify(doc.docNo)}`;
          const signature = textHash(JSON.stringify(doc));
          if (repeats.keep(doc.docNo, signature, line, found, "DOCNO", what)) documents.push(doc);
        }
        for (const p of found.list) problems.addProblem(p);
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        for (const p of error.problems) problems.addProblem(p);
      }
    }
    dropped += repeats.dropped;
    clusters.push({ cluster: c.name, documents });
  }
  if (clusters.length === 0) problems.add(0, undefined, "no cluster folder (like d30001t/) found");
  problems.throwIfAny();
  opts.onDuplicates?.(dropped);
  return clusters;
}

/**
 * Reads the human summaries of a DUC models folder. Files not named like
 * `D30001.M.100.T.A` are ignored.
 *
 * @param dir The models folder.
 * @returns The summaries sorted by cluster then assessor.
 * @throws {InputError} When no file in the folder is named like a summary.
 * @example
 * ```ts ignore
 * // Not run as a test: it reads DUC 2004, which the user brings.
 * const summaries = await readDucSummaries("duc2004/models");
 * ```
 */
export async function readDucSummaries(dir: string): Promise<DucSummary[]> {
  const out: DucSummary[] = [];
  for (const f of await entries(dir)) {
    const m = /^(D\d+)[A-Z]*\.M\.\d+\.[A-Z]\.([A-Z0-9]+)$/i.exec(f.name);
    if (!f.isFile || !m) continue;
    const text = plain(await readText(join(dir, f.name)));
    out.push({ cluster: ducClusterKey(m[1]), assessor: m[2].toUpperCase(), text });
  }
  if (out.length === 0) {
    const problems = new Problems(dir);
    problems.add(0, undefined, "no summary file named like D30001.M.100.T.A found");
    problems.throwIfAny();
  }
  return out.sort((a, b) =>
    a.cluster === b.cluster ? (a.assessor < b.assessor ? -1 : 1) : a.cluster < b.cluster ? -1 : 1
  );
}
