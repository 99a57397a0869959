/**
 * `crux annotate create` study designs: more conditions than topics allow one
 * topic each (topics shared as little as possible), conditions left out and
 * named, a too large --per-condition answered with the condition and the
 * largest value that works, designs where every pair of annotators shares
 * units, a common calibration set, an export while a server holds the
 * workspace, and a `types` task from its pages to `crux agreement`.
 */
import assert from "node:assert/strict";
import { studyWorkspace } from "../support/study_workspace.ts";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { COMMANDS } from "@lib/cli/registry.ts";
import { explorerResponse } from "@lib/serve/mod.ts";
import {
  openWorkspace,
  readAnnotationTask,
  readAnnotatorQueue,
  saveAnnotationLabel,
} from "@lib/store/mod.ts";

const TOPICS = ["t1", "t2", "t3", "t4", "t5"];
const RUNS = ["r1", "r2", "r3", "r4"];

/** 5 topics of 2 sub-questions; 4 runs with reports and a run whose reports are all empty. */
async function workspace(): Promise<string> {
  return await studyWorkspace({
    prefix: "annotate-design-",
    topics: TOPICS,
    questions: 2,
    runs: [...RUNS, "direct"],
    report: (run, t) => run === "direct" ? "" : `Report on ${t}.`,
  });
}

async function create(dir: string, args: string[], code = 0) {
  const io = memoryIo();
  const got = await main(
    ["annotate", "create", "--workspace", dir, "--task", "answerability", "--replace", ...args],
    io,
    COMMANDS,
  );
  assert.equal(got, code, io.stderr());
  return io;
}

async function task(dir: string, annotators: string[], kind = "answerability") {
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    const t = await readAnnotationTask(ws, kind);
    const units = new Map<string, Set<string>>(); // annotator -> units
    for (const a of annotators) {
      units.set(a, new Set((await readAnnotatorQueue(ws, kind, a)).map((i) => i.unit)));
    }
    return { items: t.items, units };
  } finally {
    ws.close();
  }
}

const shares = (units: Map<string, Set<string>>, a: string, b: string) =>
  [...units.get(a)!].filter((u) => units.get(b)!.has(u)).length;

Deno.test("more conditions than topics: topics shared as little as possible; empty run named", async () => {
  const dir = await workspace();
  // 4 runs x 3 reports = 12 units on 5 topics: no topic in one run only; at most 3 runs.
  const io = await create(dir, ["--annotators", "a,b,c", "--per-condition", "3"]);
  assert.match(io.stderr(), /Created the answerability task: 12 units, 24 items/);
  assert.match(io.stderr(), /Left out: direct: every report of this run is empty/);
  assert.match(io.stderr(), /each is sampled in up to 3 conditions/);
  const { items } = await task(dir, ["a", "b", "c"]);
  const reports = new Set(items.map((i) => `${i.run}\0${i.topicId}`));
  assert.equal(reports.size, 12);
  for (const run of RUNS) {
    assert.equal([...reports].filter((r) => r.startsWith(`${run}\0`)).length, 3, run);
  }
  const perTopic = TOPICS.map((t) => [...reports].filter((r) => r.endsWith(`\0${t}`)).length);
  assert.equal(Math.max(...perTopic), 3); // 12 reports on 5 topics need 3 somewhere
  assert.ok(!items.some((i) => i.run === "direct"));
  // Exported, a topic shown in several runs names each report "{run}_{topic}".
  const ws = await openWorkspace(dir);
  try {
    for (const item of await readAnnotatorQueue(ws, "answerability", "a")) {
      await saveAnnotationLabel(ws, {
        task: "answerability",
        annotator: "a",
        itemId: item.itemId,
        label: "0",
      });
    }
  } finally {
    ws.close();
  }
  const out = join(dir, "study");
  const exported = memoryIo();
  const args = ["annotate", "export", "--workspace", dir, "--task", "answerability", "--out", out];
  assert.equal(await main(args, exported, COMMANDS), 0, exported.stderr());
  const ids = (await Deno.readTextFile(join(out, "a.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l).id
  );
  const mine = (await task(dir, ["a"])).units.get("a")!;
  assert.equal(ids.length, mine.size);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, /^r[1-4]_t[1-5]$/);
  // 4 runs x 2 reports on 5 topics (some topics in two runs), 4 annotators with 4 units
  // each: nobody is given two reports of one topic.
  await create(dir, ["--annotators", "a,b,c,d", "--per-condition", "2"]);
  const spread = await openWorkspace(dir, { readOnly: true });
  try {
    for (const a of ["a", "b", "c", "d"]) {
      const q = await readAnnotatorQueue(spread, "answerability", a);
      const byUnit = new Map(q.map((i) => [i.unit, i.topicId]));
      assert.equal(byUnit.size, 4, a);
      assert.equal(new Set(byUnit.values()).size, 4, `${a}: ${[...byUnit.values()]}`);
    }
  } finally {
    spread.close();
  }
  // 4 runs x 1 report fit on 5 topics: every topic in one run at most.
  const one = await create(dir, ["--annotators", "a,b", "--per-condition", "1"]);
  assert.doesNotMatch(one.stderr(), /sampled in up to/);
  const topics = (await task(dir, ["a"])).items.map((i) => i.topicId);
  assert.equal(new Set(topics).size, 4);
  // Too large: the conditions and the largest value that works.
  const big = await create(dir, ["--annotators", "a,b", "--per-condition", "6"], 2);
  assert.match(
    big.stderr(),
    /Condition "r1" has 5, "r2" has 5, "r3" has 5 \(and 1 more conditions\) reports on topics with sub-questions, fewer than --per-condition 6; the largest --per-condition that works is 5/,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("designs: cyclic names pairs without a shared unit; pairs and calibration share", async () => {
  const dir = await workspace();
  const names = ["a", "b", "c", "d"];
  const pairs = names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b]));
  // Cyclic with 4 annotators, overlap 2: a-c and b-d never meet.
  const cyclic = await create(dir, ["--annotators", "a,b,c,d", "--per-condition", "2"]);
  assert.match(cyclic.stderr(), /No shared unit for a-c, b-d/);
  // 8 units: ab, bc, cd, da, ab, bc, cd, da.
  assert.match(cyclic.stderr(), /Units shared per pair: a-b 2, a-c 0, a-d 2, b-c 2, b-d 0, c-d 2/);
  const c = await task(dir, names);
  assert.equal(shares(c.units, "a", "c"), 0);
  assert.equal(shares(c.units, "a", "b"), 2); // units 1 and 5 of 8
  // Pairs: 8 units over the 6 pairs, every pair shares one or two; loads balanced.
  const pairsIo = await create(dir, [
    "--annotators",
    "a,b,c,d",
    "--per-condition",
    "2",
    "--design",
    "pairs",
  ]);
  assert.doesNotMatch(pairsIo.stderr(), /No shared unit/);
  const p = await task(dir, names);
  for (const [a, b] of pairs) assert.ok(shares(p.units, a, b) >= 1, `${a}-${b}`);
  const loads = names.map((a) => p.units.get(a)!.size);
  assert.equal(loads.reduce((s, x) => s + x, 0), 16); // 8 units x 2 annotators
  assert.ok(Math.max(...loads) - Math.min(...loads) <= 1, `loads ${loads}`);
  // A calibration set of 2 units: everyone labels u1 and u2 first, then the cyclic design.
  await create(dir, ["--annotators", "a,b,c,d", "--per-condition", "2", "--calibration", "2"]);
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    for (const a of names) {
      const q = await readAnnotatorQueue(ws, "answerability", a);
      assert.deepEqual([...new Set(q.map((i) => i.unit))].slice(0, 2), ["u1", "u2"], a);
    }
  } finally {
    ws.close();
  }
  const cal = await task(dir, names);
  for (const [a, b] of pairs) assert.ok(shares(cal.units, a, b) >= 2, `${a}-${b}`);
  // 6 further units, cyclic from a: ab, bc, cd, da, ab, bc -> a 3, b 4, c 3, d 2, plus 2 each.
  assert.deepEqual(names.map((a) => cal.units.get(a)!.size), [5, 6, 5, 4]);
  const over = await create(
    dir,
    ["--annotators", "a,b", "--per-condition", "1", "--calibration", "5"],
    2,
  );
  assert.match(over.stderr(), /--calibration 5 is more than the 4 units sampled/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name: "annotate export runs while crux serve --annotate is up",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await workspace();
    const io = await create(dir, ["--annotators", "a,b", "--per-condition", "1"]);
    const tokens = new Map(
      io.stdout().trim().split("\n").map((l) => {
        const [name, url] = l.split("\t");
        return [name, url.split("/").pop()!];
      }),
    );
    // a answers unit u1 before the server starts; b answers it through the server.
    let queueB: { itemId: string; unit: string }[] = [];
    const ws = await openWorkspace(dir);
    try {
      for (const item of await readAnnotatorQueue(ws, "answerability", "a")) {
        if (item.unit !== "u1") continue;
        await saveAnnotationLabel(ws, {
          task: "answerability",
          annotator: "a",
          itemId: item.itemId,
          label: "0",
        });
      }
      queueB = (await readAnnotatorQueue(ws, "answerability", "b")).filter((i) => i.unit === "u1");
    } finally {
      ws.close();
    }
    const root = new URL("../..", import.meta.url).pathname;
    const server = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "lib/cli/main.ts",
        "serve",
        "--workspace",
        dir,
        "--annotate",
        "--port",
        "0",
      ],
      cwd: root,
      stdout: "null",
      stderr: "piped",
    }).spawn();
    try {
      const reader = server.stderr.pipeThrough(new TextDecoderStream()).getReader();
      let said = "";
      let url: string | undefined;
      while (!url) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`server stopped: ${said}`);
        said += value;
        url = /at (http:\/\/[^\s]+)\/annotate\//.exec(said)?.[1];
      }
      const origin: string = url;
      for (const item of queueB) {
        const r: Response = await fetch(`${origin}/annotate/${tokens.get("b")}/${item.itemId}`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", origin },
          body: "label=0",
        });
        await r.body?.cancel();
        assert.equal(r.status, 303);
      }
      // The server holds the file only while answering: the export opens it directly.
      const out = join(dir, "study");
      const exported = memoryIo();
      assert.equal(
        await main(
          ["annotate", "export", "--workspace", dir, "--task", "answerability", "--out", out],
          exported,
          COMMANDS,
        ),
        0,
        exported.stderr(),
      );
      assert.doesNotMatch(exported.stderr(), /snapshot/);
      assert.match(exported.stdout(), /a\.jsonl\t1 lines/);
      assert.match(exported.stdout(), /b\.jsonl\t1 lines/);
      const b = JSON.parse(await Deno.readTextFile(join(out, "b.jsonl")));
      assert.deepEqual(b.answerability, [0, 0]);
      reader.releaseLock();
    } finally {
      server.kill("SIGINT");
      await server.status;
      await server.stderr.cancel().catch(() => {});
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test("a types task: sub-questions typed on their pages, exported as typed decompositions", async () => {
  const dir = await workspace();
  const io = memoryIo();
  assert.equal(
    await main(
      [
        "annotate",
        "create",
        "--workspace",
        dir,
        "--task",
        "types",
        "--annotators",
        "a,b,c,d",
        "--per-condition",
        "3",
        "--overlap",
        "4",
      ],
      io,
      COMMANDS,
    ),
    0,
    io.stderr(),
  );
  const tokens = new Map(
    io.stdout().trim().split("\n").map((l) => {
      const [name, url] = l.split("\t");
      return [name, url.split("/").pop()!];
    }),
  );
  // 3 topics x 2 sub-questions, every annotator types all six. Item k (topics in order,
  // then sub-questions): C B F C B, and the sixth C by a and b, B by c and d.
  const ws = await openWorkspace(dir);
  let topics: string[] = [];
  try {
    const origin = "http://127.0.0.1:9";
    const ask = (path: string, init: RequestInit = {}) =>
      explorerResponse(ws, new Request(origin + path, init), { annotate: true, origin });
    const post = (path: string, label: string) =>
      ask(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: `label=${encodeURIComponent(label)}`,
      });
    for (const a of ["a", "b", "c", "d"]) {
      const queue = await readAnnotatorQueue(ws, "types", a);
      assert.equal(queue.length, 6);
      topics = [...new Set(queue.map((i) => i.topicId))].sort();
      for (const item of queue) {
        const k = topics.indexOf(item.topicId) * 2 + Number(item.questionId!.slice(-1)) - 1;
        const type = k < 5
          ? ["core", "background", "follow-up", "core", "background"][k]
          : a < "c"
          ? "core"
          : "background";
        const path = `/annotate/${tokens.get(a)}/${item.itemId}`;
        if (a === "a" && k === 0) {
          const page = await (await ask(path)).text();
          assert.ok(page.includes(`Request of ${item.topicId}`), "the main question is shown");
          assert.ok(page.includes(`Question 1 of ${item.topicId}?`), "the sub-question is shown");
          assert.match(page, /value="follow-up" required/);
          // The kinds explained, and the main question read before the sub-question.
          assert.deepEqual(
            [...page.matchAll(/<dt><strong>([^<]*)<\/strong>/g)].map((m) => m[1]),
            ["Core", "Background", "Follow-up"],
          );
          assert.ok(
            page.indexOf(`Request of ${item.topicId}`) <
              page.indexOf(`Question 1 of ${item.topicId}?`),
          );
          const refused = await post(path, "central");
          assert.equal(refused.status, 400);
          // Shown again with the focus on the first kind, ready for the keyboard.
          assert.match(await refused.text(), /value="core" required autofocus/);
        }
        const r = await post(path, type);
        await r.body?.cancel();
        assert.equal(r.status, 303, `${a} ${item.itemId}`);
      }
    }
  } finally {
    ws.close();
  }
  const out = join(dir, "typed");
  const exported = memoryIo();
  assert.equal(
    await main(
      ["annotate", "export", "--workspace", dir, "--task", "types", "--out", out],
      exported,
      COMMANDS,
    ),
    0,
    exported.stderr(),
  );
  const files = ["a", "b", "c", "d"].map((a) => join(out, `${a}.json`));
  const typedC = JSON.parse(await Deno.readTextFile(files[2]));
  assert.equal(typedC.length, 3);
  const last = typedC.find((d: { question: string }) => d.question.endsWith(topics[2]));
  assert.deepEqual(last, {
    question: `Request of ${topics[2]}`,
    sub_questions_with_types: [
      { sub_question: `Question 1 of ${topics[2]}?`, type: "background" },
      { sub_question: `Question 2 of ${topics[2]}?`, type: "background" },
    ],
  });
  const agreeIo = memoryIo();
  assert.equal(
    await main(["agreement", "--labels", ...files, "--format", "json"], agreeIo, COMMANDS),
    0,
    agreeIo.stderr(),
  );
  const r = JSON.parse(agreeIo.stdout());
  assert.equal(r.kind, "types");
  assert.equal(r.items, 6);
  assert.equal(r.complete_items, 6);
  // Fleiss: five items P_i = 1, the split one (2² + 2² - 4) / 12 = 1/3:
  // P̄ = 8/9; shares 10/24, 10/24, 4/24 -> P_e = 216/576 = 3/8: kappa = (8/9 - 3/8) / (5/8).
  assert.ok(Math.abs(r.fleiss_kappa - 37 / 45) < 1e-12, String(r.fleiss_kappa));
  // Alpha: only the split item disagrees, (16 - 8) / 3 = 8/3; n = 24, expected 576 - 216:
  // 1 - 23 * (8/3) / 360 = 112/135.
  assert.ok(Math.abs(r.krippendorff_alpha.nominal - 112 / 135) < 1e-12);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("passages: each passage drawn for one retrieval run only; the largest value named", async () => {
  const dir = await workspace();
  const ws = await openWorkspace(dir);
  try {
    // Two retrieval runs ranking the same three passages of t1 (and one more each on t2).
    await ws.insert(
      "passages",
      ["t1-p1", "t1-p2", "t1-p3", "t2-p1", "t2-p2"].map((p) => ({
        passageId: p,
        topicId: p.slice(0, 2),
        docId: p,
        text: `Passage ${p}`,
      })),
    );
    await ws.insert(
      "runs",
      ["bm25", "dense"].flatMap((run, k) =>
        ["t1-p1", "t1-p2", "t1-p3", `t2-p${k + 1}`].map((p, i) => ({
          run,
          topicId: p.slice(0, 2),
          docId: p,
          rank: i + 1,
          score: 1 / (i + 1),
        }))
      ),
    );
  } finally {
    ws.close();
  }
  const run = (n: string, code: number) => {
    const io = memoryIo();
    return main(
      [
        "annotate",
        "create",
        "--workspace",
        dir,
        "--task",
        "passages",
        "--annotators",
        "a,b",
        "--per-condition",
        n,
        "--replace",
      ],
      io,
      COMMANDS,
    ).then((got) => {
      assert.equal(got, code, io.stderr());
      return io;
    });
  };
  // 4 distinct passages for two runs of 4 each: 2 per run works (t1's three and t2's two).
  await run("2", 0);
  const items = (await task(dir, ["a"], "passages")).items;
  assert.equal(items.length, 4);
  assert.equal(new Set(items.map((i) => i.passageId)).size, 4);
  // 3 per run would need 6 distinct passages of the 5: refused, 2 named as the largest.
  const refused = await run("3", 2);
  assert.match(
    refused.stderr(),
    /the largest --per-condition that works is 2 \(or raise --depth\)/,
  );
  await Deno.remove(dir, { recursive: true });
});
