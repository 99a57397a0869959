/**
 * A small annotation study for the serve tests: 10 topics of 2 sub-questions and 2
 * generation runs whose reports hold two known sentences, and `annotate create`.
 */
import assert from "node:assert/strict";
import { studyWorkspace } from "../support/study_workspace.ts";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { COMMANDS } from "@lib/cli/registry.ts";

export const RUNS = ["rag", "direct"];
export const TOPICS = Array.from({ length: 10 }, (_, i) => `t${i + 1}`);
export const FIRST = "The first answer is here.";
export const SECOND = "The second answer is there.";

/** 10 topics of 2 sub-questions and 2 generation runs, every report holding both sentences. */
export async function workspace(): Promise<string> {
  return await studyWorkspace({
    prefix: "annotate-concurrent-",
    topics: TOPICS,
    questions: 2,
    runs: RUNS,
    report: (_, t) => `Report on ${t}. ${FIRST} ${SECOND}`,
  });
}

/** `annotate create` for 3 annotators who all see every unit; returns name -> token. */
export async function create(
  dir: string,
  annotators = "a,b,c",
  overlap = 3,
): Promise<Map<string, string>> {
  const io = memoryIo();
  const code = await main(
    [
      "annotate",
      "create",
      "--workspace",
      dir,
      "--task",
      "answerability",
      "--annotators",
      annotators,
      "--per-condition",
      "5",
      "--overlap",
      String(overlap),
      "--seed",
      "3",
    ],
    io,
    COMMANDS,
  );
  assert.equal(code, 0, io.stderr());
  return new Map(
    io.stdout().trim().split("\n").map((line) => {
      const [name, url] = line.split("\t");
      return [name, url.slice(url.lastIndexOf("/") + 1)];
    }),
  );
}
