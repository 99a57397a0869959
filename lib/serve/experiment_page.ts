/**
 * The experiment page of the explorer: topics, runs with their provenance,
 * pipeline stages, and the gallery's tables and figures.
 *
 * @module
 */
import { join } from "node:path";
import {
  readRunProvenance,
  readStageRecords,
  readTopicListing,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import { esc, htmlTable, page, seg } from "./_html.ts";

interface ManifestEntry {
  name: string;
  title?: string;
  notes?: string[];
  table?: Record<string, string>;
  figure?: Record<string, string>;
}

async function galleryEntries(dir: string): Promise<ManifestEntry[]> {
  try {
    const m = JSON.parse(await Deno.readTextFile(join(dir, "analyses.json")));
    return Array.isArray(m?.analyses) ? m.analyses as ManifestEntry[] : [];
  } catch {
    return [];
  }
}

/**
 * Renders the experiment page.
 *
 * @param ws The workspace (read-only is enough).
 * @param dir The workspace folder (its `analyses.json` lists the saved tables and figures).
 * @returns The HTML page.
 * @example
 * ```ts
 * import { experimentPage } from "@lib/serve/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const wsDir = await Deno.makeTempDir();
 * const ws = await openWorkspace(wsDir);
 * await importSample(ws, "datasets/sample");
 * const html = await experimentPage(ws, ws.dir);
 * ws.close();
 * await Deno.remove(wsDir, { recursive: true });
 * ```
 */
export async function experimentPage(ws: WorkspaceLike, dir: string): Promise<string> {
  const topics = await readTopicListing(ws);
  const runs = await readRunProvenance(ws);
  const stages = await readStageRecords(ws);
  const gallery = await galleryEntries(dir);
  const short = (s: string) => s.length > 160 ? s.slice(0, 157) + "..." : s;
  const body = [
    `<h2>Topics (${topics.length})</h2>`,
    htmlTable(
      ["topic", "sub-questions", "request"],
      topics.map((t) => [
        `<a href="/topic/${seg(t.topicId)}">${esc(t.topicId)}</a>`,
        `<td class="num">${t.questions}</td>`,
        esc(short(t.request ?? "")),
      ]),
    ),
    `<h2>Runs (${runs.length})</h2>`,
    htmlTable(
      ["run", "role", "kind / condition", "parameters / backend", "from", "topics", "created"],
      runs.map((r) => [
        esc(r.run),
        esc(r.role),
        esc(r.kind),
        `<code>${esc(short(r.detail))}</code>`,
        esc(r.sources.join(", ")),
        `<td class="num">${r.topics}</td>`,
        esc(r.createdAt.slice(0, 19)),
      ]),
    ),
    `<h2>Pipeline stages (${stages.length})</h2>`,
    htmlTable(
      ["stage", "outcome", "finished"],
      stages.map((s) => [esc(s.id), esc(s.summary), esc(s.finishedAt.slice(0, 19))]),
    ),
    `<h2>Tables and figures (${gallery.length})</h2>`,
    gallery.length === 0
      ? `<p class="muted">Nothing saved yet: run the analyses (crux run) first.</p>`
      : gallery.map((g) => {
        const links = Object.entries({ ...(g.table ?? {}), ...(g.figure ?? {}) })
          .map(([k, p]) => `<a href="/files/${p.split("/").map(seg).join("/")}">${esc(k)}</a>`)
          .join(" · ");
        const img = g.figure?.svg
          ? `<figure><img alt="${esc(g.title ?? g.name)}" src="/files/${
            g.figure.svg.split("/").map(seg).join("/")
          }"></figure>`
          : "";
        return `<h3 id="${esc(g.name)}">${esc(g.title ?? g.name)}</h3><p>${links}</p>${img}`;
      }).join("\n"),
  ].join("\n");
  return page(`Experiment ${dir.split(/[\\/]/).filter(Boolean).pop() ?? dir}`, body);
}
