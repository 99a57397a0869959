/**
 * Executes a Jupyter notebook headless with the Deno kernel and returns its
 * cell outputs. Uses `jupyter nbconvert --execute` with a private kernelspec
 * (pointing at the Deno binary running the tests) when Jupyter is installed;
 * otherwise runs the notebook's code cells as one module with a minimal
 * `Deno.jupyter` shim, so the notebooks are exercised on any machine.
 *
 * @module
 */

/** One output of an executed cell, reduced to what the tests inspect. */
export interface CellOutput {
  cell: number;
  kind: "stream" | "display" | "error";
  /** MIME types of a display output. */
  mimes: string[];
  text: string;
}

/** Result of executing one notebook. */
export interface ExecutedNotebook {
  mode: "jupyter" | "script";
  outputs: CellOutput[];
  stderr: string;
  /** Earlier runs that lacked expected displays (see `complete`), one line each. */
  attempts?: string[];
}

interface RawNotebook {
  cells: { cell_type: string; source: string | string[]; outputs?: RawOutput[] }[];
}
interface RawOutput {
  output_type: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
}

const joined = (s: string | string[] | undefined) => Array.isArray(s) ? s.join("") : (s ?? "");

/** True when `jupyter nbconvert` with nbclient is available on this machine. */
export async function hasJupyter(): Promise<boolean> {
  try {
    const { success } = await new Deno.Command("jupyter", {
      args: ["nbconvert", "--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}

async function kernelDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "crux-kernel-" });
  const spec = `${dir}/kernels/deno`;
  await Deno.mkdir(spec, { recursive: true });
  await Deno.writeTextFile(
    `${spec}/kernel.json`,
    JSON.stringify({
      argv: [Deno.execPath(), "jupyter", "--kernel", "--conn", "{connection_file}"],
      display_name: "Deno",
      language: "typescript",
    }),
  );
  return dir;
}

function collect(nb: RawNotebook): CellOutput[] {
  const out: CellOutput[] = [];
  nb.cells.forEach((cell, i) => {
    for (const o of cell.outputs ?? []) {
      if (o.output_type === "stream") {
        out.push({ cell: i, kind: "stream", mimes: [], text: joined(o.text) });
      } else if (o.output_type === "error") {
        out.push({ cell: i, kind: "error", mimes: [], text: `${o.ename}: ${o.evalue}` });
      } else {
        const data = o.data ?? {};
        out.push({
          cell: i,
          kind: "display",
          mimes: Object.keys(data),
          text: joined(data["text/plain"] as string | string[] | undefined),
        });
      }
    }
  });
  return out;
}

/**
 * Executes `path` and returns its outputs.
 *
 * @param path Notebook file.
 * @param opts.env Extra environment variables for the kernel (parameters).
 * @param opts.timeoutSeconds Per-cell timeout (default 900).
 * @param opts.mode `script` runs the cells as one Deno module even where Jupyter exists.
 */
export async function executeNotebook(
  path: string,
  opts: {
    env?: Record<string, string>;
    timeoutSeconds?: number;
    mode?: "jupyter" | "script";
    complete?: (nb: ExecutedNotebook) => boolean;
  } = {},
): Promise<ExecutedNotebook> {
  // Under heavy load a display message of the Deno kernel can miss its cell (nbclient
  // then records the cell without it). A run without errors that lacks expected
  // displays is executed again, up to three runs in all, after a short pause; errors
  // are never retried. Each run's per-cell displays are kept for the failure message.
  const attempts: string[] = [];
  let run = await executeOnce(path, opts);
  for (let attempt = 1;; attempt++) {
    if (!opts.complete || opts.complete(run) || run.outputs.some((o) => o.kind === "error")) {
      if (attempts.length > 0) {
        console.log(`${path}: complete on run ${attempt}; earlier runs: ${attempts.join("; ")}`);
      }
      return { ...run, attempts };
    }
    attempts.push(`run ${attempt} (${run.mode}) displays ${displaySummary(run)}`);
    if (attempt === 3) return { ...run, attempts };
    await new Promise((r) => setTimeout(r, 2000));
    run = await executeOnce(path, opts);
  }
}

/** Displays per cell, e.g. `5:html 6:svg 12:svg`, for messages about missing outputs. */
export function displaySummary(nb: ExecutedNotebook): string {
  return nb.outputs.filter((o) => o.kind === "display").map((o) =>
    `${o.cell}:${
      o.mimes.includes("image/svg+xml") ? "svg" : o.mimes.includes("text/html") ? "html" : "other"
    }`
  ).join(" ");
}

async function executeOnce(
  path: string,
  opts: { env?: Record<string, string>; timeoutSeconds?: number; mode?: "jupyter" | "script" },
): Promise<ExecutedNotebook> {
  // `mode` or CRUX_NOTEBOOK_MODE=script forces the fallback (to test it where Jupyter exists).
  const forced = opts.mode ?? Deno.env.get("CRUX_NOTEBOOK_MODE");
  if (forced !== "script" && await hasJupyter()) return await viaJupyter(path, opts);
  return await viaScript(path, opts);
}

async function viaJupyter(
  path: string,
  opts: { env?: Record<string, string>; timeoutSeconds?: number },
): Promise<ExecutedNotebook> {
  const kernels = await kernelDir();
  const outDir = await Deno.makeTempDir({ prefix: "crux-nb-" });
  try {
    const res = await new Deno.Command("jupyter", {
      args: [
        "nbconvert",
        "--to",
        "notebook",
        "--execute",
        `--ExecutePreprocessor.timeout=${opts.timeoutSeconds ?? 900}`,
        // nbclient waits only 4 s for output messages after a cell's reply by default and
        // drops what comes later; on a loaded machine (parallel tests, CI) displays arrive
        // later than that, so wait longer.
        "--ExecutePreprocessor.iopub_timeout=120",
        "--ExecutePreprocessor.kernel_name=deno",
        "--allow-errors",
        "--output-dir",
        outDir,
        "--output",
        "executed.ipynb",
        path,
      ],
      env: { ...opts.env, JUPYTER_PATH: kernels },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(res.stderr);
    if (!res.success) throw new Error(`Notebook ${path} did not execute:\n${stderr}`);
    const nb = JSON.parse(await Deno.readTextFile(`${outDir}/executed.ipynb`)) as RawNotebook;
    return { mode: "jupyter", outputs: collect(nb), stderr };
  } finally {
    await Deno.remove(kernels, { recursive: true });
    await Deno.remove(outDir, { recursive: true });
  }
}

const SHIM = `
const __outputs = [];
const __bundle = (v) => {
  if (v && typeof v[Symbol.for("Jupyter.display")] === "function") return v[Symbol.for("Jupyter.display")]();
  return { "text/plain": String(v) };
};
let __hasJupyter = false;
try { __hasJupyter = !!Deno.jupyter; } catch { __hasJupyter = false; }
if (!__hasJupyter) {
  // Outside the kernel Deno.jupyter throws on read but accepts assignment.
  Deno.jupyter = {
    display: async (v, o) => { const b = (o && o.raw) ? v : await __bundle(v); __outputs.push(b); },
    html: (s) => ({ [Symbol.for("Jupyter.display")]: () => ({ "text/html": String.raw(s) }) }),
    md: (s) => ({ [Symbol.for("Jupyter.display")]: () => ({ "text/markdown": String.raw(s) }) }),
    svg: (s) => ({ [Symbol.for("Jupyter.display")]: () => ({ "image/svg+xml": String.raw(s) }) }),
    broadcast: async () => {},
  };
}
globalThis.__cruxOutputs = __outputs;
`;

async function viaScript(
  path: string,
  opts: { env?: Record<string, string> },
): Promise<ExecutedNotebook> {
  const nb = JSON.parse(await Deno.readTextFile(path)) as RawNotebook;
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
  const code = nb.cells.filter((c) => c.cell_type === "code").map((c, i) => {
    // A cell ending in a bare expression displays it in Jupyter; the shim does the same.
    const src = joined(c.source).trimEnd();
    const lines = src.split("\n");
    const last = lines[lines.length - 1] ?? "";
    const bare = /^[A-Za-z_$][\w$.]*(\(.*\))?;?$/.test(last.trim()) &&
      !/^(const|let|var|import|export|await)\b/.test(last.trim());
    if (bare) lines[lines.length - 1] = `Deno.jupyter.display(${last.trim().replace(/;$/, "")});`;
    return `// cell ${i}\nconsole.log("<<cell ${i}>>");\n${lines.join("\n")}\n`;
  });
  const module = `${dir}/.__notebook_script_${crypto.randomUUID()}.ts`;
  await Deno.writeTextFile(
    module,
    SHIM + code.join("\n") +
      `\nconsole.log("<<displays>>" + JSON.stringify(globalThis.__cruxOutputs.map((b) => Object.keys(b))));\n`,
  );
  try {
    const res = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", module],
      cwd: dir,
      env: opts.env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(res.stdout);
    const stderr = new TextDecoder().decode(res.stderr);
    const outputs: CellOutput[] = [];
    const m = stdout.match(/<<displays>>(.*)\n?$/m);
    if (m) {
      for (const mimes of JSON.parse(m[1]) as string[][]) {
        outputs.push({ cell: -1, kind: "display", mimes, text: "" });
      }
    }
    if (!res.success) outputs.push({ cell: -1, kind: "error", mimes: [], text: stderr });
    outputs.push({ cell: -1, kind: "stream", mimes: [], text: stdout });
    return { mode: "script", outputs, stderr };
  } finally {
    await Deno.remove(module);
  }
}
