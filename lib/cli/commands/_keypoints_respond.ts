// `crux keypoints respond`: responses with the key point protocol, as a questions file.
import { parseArgs } from "node:util";
import { type Io, UsageError } from "../command.ts";
import { jsonlOf, readQuestionDocuments, writeAtomic } from "@lib/formats/mod.ts";
import { generateResponses } from "@lib/keypoints/mod.ts";
import { terminalProgress } from "@lib/llm/mod.ts";
import { clientFlags, int } from "./_llm_flags.ts";
import { withBackend } from "./_keypoints_backend.ts";

const backendFlags = {
  backend: { type: "string" },
  reasks: { type: "string" },
  ...clientFlags,
} as const;

export async function respond(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      questions: { type: "string" },
      out: { type: "string" },
      run: { type: "string" },
      "max-tokens": { type: "string" },
      ...backendFlags,
    },
    strict: true,
  });
  if (!values.questions || !values.out || !values.run) {
    throw new UsageError("--questions FILE, --out FILE and --run NAME are required");
  }
  const maxTokens = int("max-tokens", values["max-tokens"], 1);
  const files = {
    inputs: { "--questions": values.questions },
    outputs: {
      "--out": {
        path: values.out,
        kind: jsonlOf("key point responses (JSONL)", ["qid", "run_id", "response"]),
      },
    },
  };
  return await withBackend(values, "generator", files, async (b) => {
    const lines = await readQuestionDocuments(values.questions!);
    const own = lines.filter((l) => l.runId === undefined || l.runId === values.run);
    const out = await generateResponses(
      own.map((l) => ({
        qid: l.qid,
        runId: values.run!,
        question: l.question,
        documents: l.documents.map((d) => d.text),
      })),
      b.client,
      {
        maxTokens,
        templatesDir: b.templatesDir,
        onProgress: terminalProgress(io.err, { isTty: io.isTty }),
      },
    );
    const text = own.map((l, i) =>
      JSON.stringify({
        qid: l.qid,
        question: l.question,
        run_id: values.run,
        documents: l.documents.map((d) => ({
          doc_id: d.docId,
          text: d.text,
          ...(d.title !== undefined ? { title: d.title } : {}),
        })),
        response: out[i].text,
        backend: out[i].backend,
      }) + "\n"
    ).join("");
    await writeAtomic(values.out!, text);
    const failed = out.filter((r) => r.status === "failed");
    io.err(
      `# ${out.length - failed.length} responses written (${
        out[0]?.backend ?? "no questions"
      }); ${failed.length} failed\n`,
    );
    for (const f of failed) io.err(`# respond ${f.qid}: failed: ${f.error ?? ""}\n`);
    return failed.length ? 1 : 0;
  });
}
