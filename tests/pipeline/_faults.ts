/** Test helpers for runs against a loopback server that fails some calls. */

/** A small stable hash (FNV-1a) of a request key, to pick which requests fail. */
export function requestHash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/**
 * Writes an online experiment config to `file`: the workspace, the server's URL
 * without retries, 4 sub-questions, the three generation conditions and four
 * measures, the one every failing-calls test runs.
 */
export async function writeFaultConfig(
  file: string,
  workspace: string,
  url: string,
): Promise<string> {
  await Deno.writeTextFile(
    file,
    JSON.stringify({
      name: "faults",
      workspace,
      backend: "openai",
      llm: {
        baseUrl: url,
        maxRetries: 0,
        concurrency: 4,
        roles: { generator: { model: "gen-model" }, judge: { model: "judge-model" } },
      },
      construct: { questions: 4 },
      generate: ["rag", "direct", "oracle"],
      measures: ["Cov@oracle", "Den@oracle", "Cov@10", "nDCG@10"],
    }),
  );
  return file;
}
