/**
 * Starting `crux serve --annotate` as its own process for the serve tests that
 * write the workspace beside it or kill it mid-write.
 */
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../lib/cli/main.ts", import.meta.url));

/**
 * Starts `crux serve --annotate --workspace DIR --port 0` and waits until it
 * prints where it listens.
 *
 * @returns The process and its base URL (`http://host:port`).
 * @throws {Error} With what it printed, when the process ends before listening.
 */
export async function spawnServer(
  dir: string,
): Promise<{ child: Deno.ChildProcess; url: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "serve", "--annotate", "--workspace", dir, "--port", "0"],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`crux serve ended before listening: ${seen}`);
    seen += value;
    const m = seen.match(/at (http:\/\/[^/\s]+)\/annotate/);
    if (m) {
      // Keep draining stderr so the process never blocks on a full pipe.
      (async () => {
        while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
      })();
      return { child, url: m[1] };
    }
  }
}
