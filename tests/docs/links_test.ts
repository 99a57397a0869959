/**
 * Every relative link of the README and of docs/ points at a file that exists, and a
 * link with an anchor at a heading of that file.
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[`*_\\]/g, (c) => (c === "_" ? "_" : ""))
    .replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** The anchors of a Markdown file's headings (outside code fences). */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let fence = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fence = !fence;
    const m = !fence && /^#{1,6} (.*)$/.exec(line);
    if (m) out.add(anchorOf(m[1]));
  }
  return out;
}

/** Relative link targets of a Markdown file (outside code fences): [text](target). */
function links(markdown: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let fence = false;
  markdown.split("\n").forEach((line, i) => {
    if (line.startsWith("```")) fence = !fence;
    if (fence) return;
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^[a-z]+:/i.test(m[1])) out.push({ target: m[1], line: i + 1 });
    }
  });
  return out;
}

async function markdownFiles(): Promise<string[]> {
  const files = [join(ROOT, "README.md")];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = join(dir, e.name);
      if (e.isDirectory) await walk(p);
      else if (e.name.endsWith(".md")) files.push(p);
    }
  };
  await walk(join(ROOT, "docs"));
  return files;
}

Deno.test("anchors follow GitHub's rule", () => {
  assert.equal(anchorOf("2. A workspace from the release"), "2-a-workspace-from-the-release");
  assert.equal(anchorOf("Selection: the required subset P\\*"), "selection-the-required-subset-p");
  assert.equal(anchorOf("crux run"), "crux-run");
  assert.equal(anchorOf("alpha_nDCG"), "alpha_ndcg");
});

Deno.test("README and docs/ link only to files and anchors that exist", async () => {
  const broken: string[] = [];
  for (const file of await markdownFiles()) {
    const text = await Deno.readTextFile(file);
    for (const { target, line } of links(text)) {
      const [path, anchor] = target.split("#");
      const to = path ? join(dirname(file), decodeURIComponent(path)) : file;
      const where = `${relative(ROOT, file)}:${line}: ${target}`;
      let body: string | undefined;
      try {
        const stat = await Deno.stat(to);
        body = stat.isFile && to.endsWith(".md") ? await Deno.readTextFile(to) : "";
      } catch {
        broken.push(`${where} (no such file)`);
        continue;
      }
      if (anchor && to.endsWith(".md") && !anchors(body).has(anchor)) {
        broken.push(`${where} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});
