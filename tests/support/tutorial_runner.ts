/**
 * Extracts the shell blocks of a tutorial page (fences marked `sh tutorial`) and runs
 * them in a folder with the checkout's `crux`, so a tutorial that drifts from the code fails.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** One `sh tutorial` block: its text and the line of the page it starts on (1-based). */
export interface TutorialBlock {
  line: number;
  text: string;
}

/** The `sh tutorial` blocks of a Markdown page, in order. */
export function tutorialBlocks(markdown: string): TutorialBlock[] {
  const lines = markdown.split("\n");
  const blocks: TutorialBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```sh tutorial\s*$/.test(lines[i])) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end].startsWith("```")) end++;
    if (end === lines.length) throw new SyntaxError(`Unclosed tutorial block at line ${i + 1}`);
    blocks.push({ line: start + 1, text: lines.slice(start, end).join("\n") });
    i = end;
  }
  return blocks;
}

/** What running a tutorial gave: the first failing block, if any, and its output. */
export interface TutorialResult {
  ok: boolean;
  /** Line of the page where the failing block starts. */
  failedAt?: number;
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the blocks one after another with `bash -e` in `cwd`, `npx -y deno task crux`
 * replaced by this checkout's `crux`, with `env` added (e.g. a loopback model endpoint);
 * stops at the first block that fails.
 */
export async function runTutorial(
  blocks: readonly TutorialBlock[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<TutorialResult> {
  const crux = `"${Deno.execPath()}" run -A "${join(ROOT, "lib/cli/main.ts")}"`;
  let stdout = "";
  let stderr = "";
  for (const b of blocks) {
    const script = "set -euo pipefail\n" + b.text.replaceAll("npx -y deno task crux", crux);
    const out = await new Deno.Command("bash", {
      args: ["-c", script],
      cwd,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1", ...env },
    }).output();
    stdout += new TextDecoder().decode(out.stdout);
    stderr += new TextDecoder().decode(out.stderr);
    if (out.code !== 0) return { ok: false, failedAt: b.line, code: out.code, stdout, stderr };
  }
  return { ok: true, code: 0, stdout, stderr };
}
