// Flags and backend setup shared by the `crux subq` actions.
import { parseArgs } from "node:util";
import { type Io, UsageError } from "../command.ts";
import { chooseBackend, clientFlags, flagRoleClient } from "./_llm_flags.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { guardOutputs, JSON_FILE, writeAtomic } from "@lib/formats/mod.ts";
import { SUBQ } from "@lib/methods/mod.ts";

export const options = {
  ...clientFlags,
  backend: { type: "string" },
  out: { type: "string" },
  questions: { type: "string" },
  decompositions: { type: "string" },
  examples: { type: "string" },
  answers: { type: "string", multiple: true },
  corpus: { type: "string" },
  coverage: { type: "string" },
  preferences: { type: "string" },
  n: { type: "string" },
  threshold: { type: "string" },
  weights: { type: "string" },
  validation: { type: "string" },
  seed: { type: "string" },
  format: { type: "string" },
} as const;

export type Values = ReturnType<typeof parseArgs<{ options: typeof options }>>["values"];

/** Parses the flags and opens the backend: a cached client (needs --workspace) or offline. */
export async function setup(args: string[]) {
  const { values } = parseArgs({ args, options });
  const backend = chooseBackend(values as Record<string, string | undefined>, {
    model: "openai",
    offline: ["offline"],
    fallback: "offline",
  });
  // --out never overwrites an input file or the workspace's database.
  const inputs: Record<string, string | undefined> = {};
  for (const k of ["questions", "decompositions", "examples", "corpus", "preferences"] as const) {
    inputs[`--${k}`] = values[k];
  }
  (values.answers ?? []).forEach((a, i) => (inputs[`--answers #${i + 1}`] = a));
  // decompose and classify write a JSON document, judge JSONL: either may replace the other.
  await guardOutputs({
    inputs,
    outputs: { "--out": { path: values.out, kind: JSON_FILE } },
    workspace: values.workspace,
  });
  if (backend === "openai" && !values.workspace) {
    throw new UsageError("--workspace DIR is required with a model: model calls are cached there");
  }
  const ws = values.workspace ? await openWorkspace(values.workspace) : undefined;
  const role = ws
    ? await flagRoleClient(ws, "judge", values as Record<string, string>, backend === "openai")
    : undefined;
  // The method's one backends factory, as the pipeline's sub-question stages use it.
  const { client, templatesDir } = SUBQ.backends({ section: {}, judge: role });
  const step = { client, templatesDir };
  return { values, step, ws, close: () => ws?.close() };
}

export async function write(io: Io, out: string | undefined, text: string): Promise<void> {
  if (out) await writeAtomic(out, text);
  else io.out(text);
}

export function fail(io: Io, what: string, r: { id: string; status: string; raw?: string }) {
  io.err(`${what} "${r.id}" ${r.status}: ${(r.raw ?? "").slice(0, 200)}\n`);
}
