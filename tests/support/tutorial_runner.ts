/**
 * Extracts the shell blocks of a tutorial page (fences marked `sh tutorial`) and runs
 * them in a folder with the checkout's `crux`, so a tutorial that drifts from the code fails.
 * A block marked `sh tutorial server` starts a server (e.g. `crux serve --annotate`) that
 * the test talks to while it runs, then stops it.
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
  /** Marked `sh tutorial server`: one command that serves until it is stopped. */
  server?: true;
}

/** The `sh tutorial` blocks of a Markdown page, in order. */
export function tutorialBlocks(markdown: string): TutorialBlock[] {
  const lines = markdown.split("\n");
  const blocks: TutorialBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```sh tutorial( server)?\s*$/.exec(lines[i]);
    if (!fence) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end].startsWith("```")) end++;
    if (end === lines.length) throw new SyntaxError(`Unclosed tutorial block at line ${i + 1}`);
    const text = lines.slice(start, end).join("\n");
    blocks.push(fence[1] ? { line: start + 1, text, server: true } : { line: start + 1, text });
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

/** What a test does while a `sh tutorial server` block serves. */
export type WhileServing = (server: { url: string; stdout: string }) => Promise<void>;

/** Options of {@linkcode runTutorial}. */
export interface RunOptions {
  /**
   * Called once a server block has printed its address (`url`: scheme, host and port;
   * `stdout`: everything the page printed so far); the server is stopped when it returns.
   */
  whileServing?: WhileServing;
  /** Longest wait for a server block's address (default 60 s). */
  serverStartMs?: number;
}

/**
 * Runs the blocks one after another with `bash -e` in `cwd`, `npx -y deno task crux`
 * replaced by this checkout's `crux`, with `env` added (e.g. a loopback model endpoint);
 * stops at the first block that fails. A server block's command gets `--port 0` (a free
 * port, read back from its output) and runs until `opts.whileServing` returns; a server
 * block without `whileServing`, or one that exits or prints no address, fails.
 */
export async function runTutorial(
  blocks: readonly TutorialBlock[],
  cwd: string,
  env: Record<string, string> = {},
  opts: RunOptions = {},
): Promise<TutorialResult> {
  const crux = `"${Deno.execPath()}" run -A "${join(ROOT, "lib/cli/main.ts")}"`;
  let stdout = "";
  let stderr = "";
  for (const b of blocks) {
    const command = b.text.replaceAll("npx -y deno task crux", crux);
    if (b.server) {
      const r = await serveBlock(command, cwd, { NO_COLOR: "1", ...env }, stdout, opts);
      stdout += r.stdout;
      stderr += r.stderr;
      if (!r.ok) return { ok: false, failedAt: b.line, code: r.code, stdout, stderr };
      continue;
    }
    const script = "set -euo pipefail\n" + command;
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

/** Collects a stream's text; `seen` resolves with the first match of `pattern`. */
function collect(stream: ReadableStream<Uint8Array>, pattern: RegExp) {
  let text = "";
  let found: (m: string) => void = () => {};
  const seen = new Promise<string>((resolve) => (found = resolve));
  const done = (async () => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      const m = pattern.exec(text);
      if (m) found(m[0]);
    }
  })();
  return { text: () => text, seen, done };
}

async function serveBlock(
  command: string,
  cwd: string,
  env: Record<string, string>,
  before: string,
  opts: RunOptions,
): Promise<{ ok: boolean; code: number; stdout: string; stderr: string }> {
  if (!opts.whileServing) {
    return { ok: false, code: 1, stdout: "", stderr: "a server block needs whileServing\n" };
  }
  // `exec` makes the server the process the runner stops.
  const child = new Deno.Command("bash", {
    args: ["-c", `set -euo pipefail\nexec ${command.trim()} --port 0`],
    cwd,
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // The address line may go to either stream.
  const address = /https?:\/\/[^\s/]+(?=\/)/;
  const out = collect(child.stdout, address);
  const err = collect(child.stderr, address);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) =>
    timer = setTimeout(() => resolve("timeout"), opts.serverStartMs ?? 60_000)
  );
  const started = await Promise.race([
    out.seen,
    err.seen,
    child.status.then(() => "exited"),
    timeout,
  ]);
  clearTimeout(timer);
  let ok = false;
  let failure = "";
  if (started === "exited" || started === "timeout") {
    failure = `the server ${started === "exited" ? "exited" : "printed no address"}\n`;
  } else {
    try {
      await opts.whileServing({ url: started, stdout: before + out.text() });
      ok = true;
    } catch (e) {
      failure = `while serving: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`;
    }
  }
  try {
    child.kill("SIGTERM");
  } catch {
    // Already exited.
  }
  const status = await child.status;
  await Promise.all([out.done, err.done]);
  return {
    ok,
    code: ok ? 0 : status.code || 1,
    stdout: out.text(),
    stderr: err.text() + failure,
  };
}
