/**
 * Annotation studies end to end on a small hand-made workspace: `crux annotate
 * create` links, labels posted to a real server and stored at once, tokens limited
 * to their own items, writes refused from another origin, progress kept across a
 * restart, and the export feeding `crux agreement` with the kappa computed by hand.
 */
import assert from "node:assert/strict";
import { studyWorkspace } from "../support/study_workspace.ts";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { COMMANDS } from "@lib/cli/registry.ts";
import { explorerResponse, serveWorkspace } from "@lib/serve/mod.ts";
import {
  openWorkspace,
  readAnnotationLabels,
  readAnnotationTask,
  readAnnotatorQueue,
  type Workspace,
} from "@lib/store/mod.ts";

const HOSTILE = `<script>window.__hit = 1</script><img src=x onerror="window.__hit = 2">`;
const TOPICS = ["t1", "t2", "t3", "t4"];
const span = "The first answer is here.";
const RUNS = ["rag-secret", "direct-secret"];
const CHROMIUM = "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

/** Report texts name the system by number, never by run name. */
const system = (run: string) => run === RUNS[0] ? "one" : "two";
const report = (run: string, topic: string) =>
  `Report of system ${system(run)} on ${topic}. ${
    topic === "t1" ? HOSTILE : ""
  }The first answer is here. ` +
  "The second answer is there.";

/** A workspace with 4 topics of 2 sub-questions, 2 generation runs, 1 ranking and nuggets. */
async function workspace(): Promise<string> {
  return await studyWorkspace({
    prefix: "annotate-test-",
    topics: TOPICS,
    questions: 2,
    runs: RUNS,
    report,
    more: async (ws) => {
      await ws.insert(
        "passages",
        TOPICS.flatMap((t) =>
          [1, 2].map((k) => ({
            passageId: `${t}-p${k}`,
            topicId: t,
            docId: t,
            text: `Passage ${k}`,
          }))
        ),
      );
      await ws.insert(
        "runs",
        TOPICS.flatMap((t) =>
          [1, 2].map((k) => ({
            run: "bm25",
            topicId: t,
            docId: `${t}-p${k}`,
            rank: k,
            score: 1 / k,
          }))
        ),
      );
      await ws.insert(
        "nuggets",
        TOPICS.flatMap((t) =>
          [1, 2].map((o) => ({
            topicId: t,
            origin: "created:offline",
            ordinal: o,
            text: `Nugget ${o} of ${t}`,
            importance: o === 1 ? "vital" : "okay",
            kept: true,
          }))
        ),
      );
    },
  });
}

async function create(dir: string, args: string[]): Promise<Map<string, string>> {
  const io = memoryIo();
  const code = await main(["annotate", "create", "--workspace", dir, ...args], io, COMMANDS);
  assert.equal(code, 0, io.stderr());
  const links = new Map<string, string>();
  for (const line of io.stdout().trim().split("\n")) {
    const [name, url] = line.split("\t");
    const m = url.match(/^http:\/\/127\.0\.0\.1:8765\/annotate\/([0-9a-f]{48})$/);
    assert.ok(m, url);
    links.set(name, m[1]);
  }
  return links;
}

async function queueOf(dir: string, task: string, annotator: string) {
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    return await readAnnotatorQueue(ws, task, annotator);
  } finally {
    ws.close();
  }
}

Deno.test({
  name: "answerability study: links, own items only, origin check, restart, export, agreement",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await workspace();
    const tokens = await create(dir, [
      "--task",
      "answerability",
      "--annotators",
      "a,b,c",
      "--per-condition",
      "2",
      "--overlap",
      "2",
      "--seed",
      "7",
    ]);
    assert.deepEqual([...tokens.keys()], ["a", "b", "c"]);
    assert.equal(new Set(tokens.values()).size, 3);
    // 2 runs x 2 reports, each topic in one run only; 2 sub-questions per report.
    const ws0 = await openWorkspace(dir, { readOnly: true });
    const task = await readAnnotationTask(ws0, "answerability");
    const stored = await ws0.query<{ tokenSha256: string }>("SELECT token_sha256 FROM annotators");
    ws0.close();
    assert.equal(task.items.length, 8);
    assert.equal(new Set(task.items.map((i) => i.topicId)).size, 4);
    for (const run of RUNS) assert.equal(task.items.filter((i) => i.run === run).length, 4);
    for (const s of stored) assert.ok(![...tokens.values()].includes(s.tokenSha256));
    // Unit j goes to annotators j and j+1 (mod 3): a u1,u3,u4; b u1,u2,u4; c u2,u3.
    const qa = await queueOf(dir, "answerability", "a");
    const qb = await queueOf(dir, "answerability", "b");
    const qc = await queueOf(dir, "answerability", "c");
    assert.deepEqual([qa.length, qb.length, qc.length], [6, 6, 4]);
    const units = (q: typeof qa) => [...new Set(q.map((i) => i.unit))];
    assert.deepEqual(units(qa), ["u1", "u3", "u4"]);
    assert.deepEqual(units(qb), ["u1", "u2", "u4"]);
    assert.deepEqual(units(qc), ["u2", "u3"]);

    let server = await serveWorkspace(dir, { port: 0, annotate: true });
    const origin = () => server.url;
    const post = (token: string, item: string, body: Record<string, string>, from?: string) =>
      fetch(`${origin()}/annotate/${token}/${item}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(from === "" ? {} : { origin: from ?? origin() }),
        },
        body: new URLSearchParams(body).toString(),
      });
    const get = async (path: string) => {
      const r = await fetch(origin() + path);
      return {
        status: r.status,
        text: await r.text(),
        csp: r.headers.get("content-security-policy"),
      };
    };
    try {
      const A = tokens.get("a")!, B = tokens.get("b")!, C = tokens.get("c")!;
      const home = await get(`/annotate/${A}`);
      assert.equal(home.status, 200);
      assert.match(home.text, /Progress: 0 \/ 6 done/);
      assert.match(home.csp!, /script-src 'none'/);
      for (const run of RUNS) assert.ok(!home.text.includes(run), "no run name on the queue");
      const t1 = qa.find((i) => i.topicId === "t1") ?? qb.find((i) => i.topicId === "t1")!;
      const owner = qa.includes(t1) ? A : B;
      const page = await get(`/annotate/${owner}/${t1.itemId}`);
      assert.equal(page.status, 200);
      for (const run of RUNS) assert.ok(!page.text.includes(run), "no run name on an item");
      assert.ok(!page.text.includes("<script>") && !/<img[^>]*onerror/.test(page.text));
      assert.ok(page.text.includes("&lt;script&gt;window.__hit = 1&lt;/script&gt;"));
      assert.ok(page.text.includes(`Question ${t1.questionId!.slice(-1)} of t1?`));
      // Instructions on the queue and the item; the question above the report; the
      // page opens on the first answer; where the item stands in the queue.
      assert.match(home.text, /<h2>Instructions<\/h2>[^]*Judge by the report alone/);
      assert.match(page.text, /<details open><summary>Instructions[^]*Judge by the report alone/);
      const question = page.text.indexOf(`Question ${t1.questionId!.slice(-1)} of t1?`);
      assert.ok(question > 0 && question < page.text.indexOf(`id="report-text"`));
      assert.deepEqual(
        [...page.text.matchAll(/<input [^>]*autofocus/g)].map((m) => m[0]),
        [`<input type="radio" name="label-0" value="1" required autofocus`],
      );
      // One page per report: both sub-questions of t1 above the report, shown once.
      const other = t1.questionId!.endsWith("1") ? 2 : 1;
      const second = page.text.indexOf(`Question ${other} of t1?`);
      assert.ok(second > 0 && second < page.text.indexOf(`id="report-text"`));
      assert.equal(page.text.split(`id="report-text"`).length, 2, "the report once");
      assert.deepEqual(
        [...page.text.matchAll(/name="(label-\d|span-\d)" /g)].map((m) => m[1]),
        ["label-0", "label-0", "span-0", "label-1", "label-1", "span-1"],
      );
      const ownQueue = qa.includes(t1) ? qa : qb;
      const unitNo = [...new Set(ownQueue.map((i) => i.unit))].indexOf(t1.unit) + 1;
      const k = ownQueue.indexOf(t1) + 1;
      assert.ok(
        page.text.includes(`Unit ${unitNo} of 3 (items ${k}-${k + 1} of 6)`),
        `unit ${unitNo} of 3`,
      );
      // The explorer is off while annotating, and unknown tokens get 403.
      assert.equal((await get("/")).status, 404);
      assert.equal((await get(`/annotate/${"0".repeat(48)}`)).status, 403);

      // Another annotator's item: 403 for reading and writing (a has no u2, c no u1).
      const u2 = qb.find((i) => i.unit === "u2")!;
      assert.equal((await get(`/annotate/${A}/${u2.itemId}`)).status, 403);
      assert.equal((await post(A, u2.itemId, { label: "0" })).status, 403);
      const u1 = qa.filter((i) => i.unit === "u1"), u4 = qa.filter((i) => i.unit === "u4");
      assert.equal((await get(`/annotate/${C}/${u1[0].itemId}`)).status, 403);
      assert.equal((await post(C, u1[0].itemId, { label: "0" })).status, 403);
      // A write from another origin, or with no Origin nor Referer: 403, nothing stored.
      assert.equal(
        (await post(A, u1[0].itemId, { label: "0" }, "http://evil.example")).status,
        403,
      );
      assert.equal((await post(A, u1[0].itemId, { label: "0" }, "")).status, 403);
      const port = new URL(origin()).port;
      for (const other of [`http://localhost:${Number(port) + 1}`, `https://127.0.0.1:${port}`]) {
        assert.equal((await post(A, u1[0].itemId, { label: "0" }, other)).status, 403, other);
      }
      // A span that is not in the report, or "answerable" without a span: 400.
      const bad = await post(A, u1[0].itemId, { label: "1", span: "not in the report" });
      assert.equal(bad.status, 400);
      assert.match(await bad.text(), /The span is not in the report/);
      assert.equal((await post(A, u1[0].itemId, { label: "1" })).status, 400);
      assert.equal((await readLabels(dir)).length, 0);

      // a: u1 = [1, 0], u4 = [1, 1]; b: u1 = [1, 0], u4 = [0, 1] (sub-question order).
      const labelsA = [["1", span], ["0", ""], ["1", span], [
        "1",
        "  The second   answer is there. ",
      ]];
      const labelsB = [["1", span], ["0", ""], ["0", ""], ["1", "The second answer is there."]];
      // A unit with one question left open: 400, nothing of it stored, input kept.
      const half = await post(A, u1[0].itemId, { "label-0": "1", "span-0": span });
      assert.equal(half.status, 400);
      const halfPage = await half.text();
      assert.match(halfPage, /Question 2: Choose answerable or not answerable/);
      assert.ok(halfPage.includes(`name="span-0" rows="2">${span}</textarea>`));
      assert.match(halfPage, /name="label-0" value="1" required checked/);
      for (const [token, labels, queue] of [[A, labelsA, qa], [B, labelsB, qb]] as const) {
        for (const [u, unit] of ["u1", "u4"].entries()) {
          const items = queue.filter((i) => i.unit === unit);
          const body: Record<string, string> = {};
          for (const j of [0, 1]) {
            body[`label-${j}`] = labels[u * 2 + j][0];
            body[`span-${j}`] = labels[u * 2 + j][1];
          }
          // One page is posted from the same server named localhost: accepted.
          const from = token === B && u === 0 ? `http://localhost:${port}` : undefined;
          // Posted to the unit's second item: the page is the unit's, whichever item.
          const r = await post(token, items[1].itemId, body, from);
          assert.equal(r.status, 303);
          assert.match(
            r.headers.get("location")!,
            new RegExp(`^/annotate/${token}(/[0-9a-f]{8})?$`),
          );
        }
      }
      // The label is stored the moment it is posted (read by a fresh connection after stop).
      assert.match((await get(`/annotate/${A}`)).text, /Progress: 4 \/ 6 done/);
      // b's answer to u4's first sub-question was 0; a sees its own 1, not b's.
      const mine = await get(`/annotate/${A}/${u4[0].itemId}`);
      assert.match(mine.text, /value="1" required checked/);
      assert.doesNotMatch(mine.text, /value="0" required checked/);
    } finally {
      await server.shutdown();
    }
    const labels = await readLabels(dir);
    assert.equal(labels.length, 8);
    assert.equal(
      labels.find((l) =>
        l.annotator === "a" && l.itemId === qa.filter((i) => i.unit === "u4")[1].itemId
      )
        ?.span,
      "The second answer is there.",
    );

    // Restart: progress is kept, and the next item is the first one not answered.
    server = await serveWorkspace(dir, { port: 0, annotate: true });
    try {
      const queue = await get(`/annotate/${tokens.get("a")}`);
      assert.match(queue.text, /Progress: 4 \/ 6 done/);
      const next = qa.find((i) => i.unit === "u3")!;
      assert.ok(queue.text.includes(`Continue with the next item`));
      assert.ok(queue.text.includes(`/annotate/${tokens.get("a")}/${next.itemId}">Continue`));
      assert.match((await get(`/annotate/${tokens.get("b")}`)).text, /Progress: 4 \/ 6 done/);
      assert.match((await get(`/annotate/${tokens.get("c")}`)).text, /Progress: 0 \/ 4 done/);
    } finally {
      await server.shutdown();
    }

    // Export and agreement: a and b share u1 and u4 (4 sub-question labels).
    const out = join(dir, "labels");
    const io = memoryIo();
    assert.equal(
      await main(
        ["annotate", "export", "--workspace", dir, "--task", "answerability", "--out", out],
        io,
        COMMANDS,
      ),
      0,
      io.stderr(),
    );
    assert.match(io.stdout(), /a\.jsonl\t2 lines/);
    assert.match(io.stdout(), /c\.jsonl\t0 lines/);
    const lineA = (await Deno.readTextFile(join(out, "a.jsonl"))).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    const u1Topic = qa.find((i) => i.unit === "u1")!.topicId;
    const first = lineA.find((l) => l.id === u1Topic);
    assert.deepEqual(first, {
      id: u1Topic,
      question_based_nugget: {
        [`Question 1 of ${u1Topic}?`]: span,
        [`Question 2 of ${u1Topic}?`]: "",
      },
      answerability: [1, 0],
      coverage: 0.5,
    });
    const agree = memoryIo();
    assert.equal(
      await main(
        ["agreement", "--labels", join(out, "a.jsonl"), join(out, "b.jsonl"), "--format", "json"],
        agree,
        COMMANDS,
      ),
      0,
      agree.stderr(),
    );
    const r = JSON.parse(agree.stdout());
    // a = [1,0,1,1], b = [1,0,0,1]: p_o = 3/4; p_e = 3/4*2/4 + 1/4*2/4 = 1/2 -> Cohen 0.5.
    // Fleiss: shares 5/8 and 3/8, P_e = 34/64, P = 3/4 -> (3/4 - 34/64) / (1 - 34/64) = 7/15.
    assert.equal(r.items, 4);
    assert.equal(r.cohen_kappa[0][1], 0.5);
    assert.ok(Math.abs(r.fleiss_kappa - 7 / 15) < 1e-12, String(r.fleiss_kappa));
  },
});

async function readLabels(dir: string) {
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    return await readAnnotationLabels(ws, "answerability");
  } finally {
    ws.close();
  }
}

async function ask(ws: Workspace, path: string, init: RequestInit = {}) {
  return await explorerResponse(ws, new Request(`http://127.0.0.1:9${path}`, init), {
    annotate: true,
    origin: "http://127.0.0.1:9",
  });
}

const form = (body: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: {
    "content-type": "application/x-www-form-urlencoded",
    referer: "http://127.0.0.1:9/annotate/x",
  },
  body: new URLSearchParams(body).toString(),
});

Deno.test({
  name: "passage, nugget and preference tasks: forms, stored labels and their export formats",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await workspace();
    const p = await create(dir, [
      "--task",
      "passages",
      "--annotators",
      "a,b",
      "--per-condition",
      "3",
    ]);
    const n = await create(dir, [
      "--task",
      "nuggets",
      "--annotators",
      "a,b",
      "--per-condition",
      "1",
    ]);
    const f = await create(dir, [
      "--task",
      "preference",
      "--annotators",
      "a,b",
      "--per-condition",
      "2",
    ]);
    const ws = await openWorkspace(dir);
    try {
      // Passages: 3 passages of bm25's top 10, both annotators (overlap 2), rubric shown.
      const qp = await readAnnotatorQueue(ws, "passages", "a");
      assert.equal(qp.length, 3);
      const pg = await (await ask(ws, `/annotate/${p.get("a")}/${qp[0].itemId}`)).text();
      // The scale, 5 down to 0, and every point weighs relevance, completeness, accuracy.
      const scale = [...pg.matchAll(/<dt><strong>(\d)<\/strong><\/dt><dd>([^<]*)<\/dd>/g)];
      assert.deepEqual(scale.map((m) => m[1]), ["5", "4", "3", "2", "1", "0"]);
      for (const [, point, words] of scale) {
        assert.match(words, /relevan/, point);
        assert.match(words, /complete/, point);
        assert.match(words, /accura/, point);
      }
      const qpage = await (await ask(ws, `/annotate/${p.get("a")}`)).text();
      assert.match(qpage, /<h2>Instructions<\/h2>[^]*<dt><strong>0<\/strong><\/dt><dd>/);
      assert.equal([...pg.matchAll(/<fieldset>/g)].length, 2);
      // Both questions come before the passage; the first rating has the focus.
      const passage = pg.indexOf("<h2>Passage</h2>");
      const [topic] = pg.match(/Question 2 of (t\d)\?/)!.slice(1);
      assert.ok(pg.indexOf(`Question 1 of ${topic}?`) < pg.indexOf(`Question 2 of ${topic}?`));
      assert.ok(pg.indexOf(`Question 2 of ${topic}?`) < passage && passage > 0);
      assert.deepEqual(
        [...pg.matchAll(/name="(q\d)" value="(\d)" required autofocus/g)].map(
          (m) => `${m[1]}=${m[2]}`,
        ),
        ["q0=0"],
      );
      assert.equal(
        (await ask(ws, `/annotate/${p.get("a")}/${qp[0].itemId}`, form({ q0: "4" }))).status,
        400,
      );
      assert.equal(
        (await ask(ws, `/annotate/${p.get("a")}/${qp[0].itemId}`, form({ q0: "4", q1: "6" })))
          .status,
        400,
      );
      const r = await ask(
        ws,
        `/annotate/${p.get("a")}/${qp[0].itemId}`,
        form({ q0: "4", q1: "0" }),
      );
      assert.equal(r.status, 303);
      assert.equal(r.headers.get("location"), `/annotate/${p.get("a")}/${qp[1].itemId}`);
      // b rates the same three passages (in b's own queue order, matched by passage).
      const qpb = await readAnnotatorQueue(ws, "passages", "b");
      const RATED: Record<string, [string, string][]> = {
        a: [["4", "0"], ["2", "5"], ["3", "3"]],
        b: [["5", "1"], ["1", "5"], ["0", "3"]],
      };
      for (const [who, queue] of [["a", qp], ["b", qpb]] as const) {
        for (const [k, item] of qp.entries()) {
          if (who === "a" && k === 0) continue;
          const mine = queue.find((i) => i.passageId === item.passageId)!;
          const [q0, q1] = RATED[who][k];
          const res = await ask(ws, `/annotate/${p.get(who)}/${mine.itemId}`, form({ q0, q1 }));
          assert.equal(res.status, 303);
        }
      }
      // Nuggets: one report per run, both nuggets of its topic.
      const qn = await readAnnotatorQueue(ws, "nuggets", "b");
      assert.equal(qn.length, 4);
      // Both facts of one answer on one page: "fact" throughout, the facts above the
      // answer, the answer shown once.
      const unit = qn.filter((i) => i.unit === qn[0].unit);
      assert.equal(unit.length, 2);
      const nTopic = unit[0].topicId;
      const nPath = (i: number) => `/annotate/${n.get("b")}/${unit[i].itemId}`;
      const np = await (await ask(ws, nPath(1))).text();
      // (The fixture's facts read "Nugget 1 of t4": the only "nugget" allowed.)
      const chrome = np.replace(/Nugget \d of t\d/g, "");
      assert.ok(!/nugget/i.test(chrome), chrome.match(/.{60}nugget.{60}/is)?.[0]);
      assert.match(np, /Supported: the answer states the fact/);
      const f1 = np.indexOf(`Fact 1 of 2: <strong>Nugget 1 of ${nTopic}</strong>`);
      const f2 = np.indexOf(`Fact 2 of 2: <strong>Nugget 2 of ${nTopic}</strong>`);
      assert.ok(f1 > 0 && f1 < f2 && f2 < np.indexOf("<h2>Answer</h2>"));
      assert.equal(np.split("<h2>Answer</h2>").length, 2, "the answer once");
      assert.match(np, /Unit 1 of 2 \(items 1-2 of 4\)/);
      assert.deepEqual(
        [...np.matchAll(/name="(f\d)" value="(\w+)" required autofocus/g)].map(
          (m) => `${m[1]}=${m[2]}`,
        ),
        ["f0=support"],
      );
      // One fact left open: refused, and the given answer is kept.
      const half = await ask(ws, nPath(0), form({ f0: "support" }));
      assert.equal(half.status, 400);
      const again = await half.text();
      assert.match(again, /Choose an answer for fact 2/);
      assert.match(again, /name="f0" value="support" required checked/);
      assert.equal((await ask(ws, nPath(0), form({ f0: "yes", f1: "support" }))).status, 400);
      const saved = await ask(ws, nPath(0), form({ f0: "support", f1: "partial_support" }));
      assert.equal(saved.status, 303);
      // On to the other answer's facts, not the second fact of this one.
      const other = qn.find((i) => i.unit !== unit[0].unit)!;
      assert.equal(saved.headers.get("location"), `/annotate/${n.get("b")}/${other.itemId}`);
      // Preference: 2 topics of the one run pair; A is the report shown first.
      const qf = await readAnnotatorQueue(ws, "preference", "a");
      assert.equal(qf.length, 2);
      const fp = await (await ask(ws, `/annotate/${f.get("a")}/${qf[0].itemId}`)).text();
      const [a, b] = [fp.indexOf("Answer A"), fp.indexOf("Answer B")];
      assert.ok(a > 0 && b > a);
      assert.ok(
        fp.indexOf(`Report of system ${system(qf[0].run!)} on`) > a &&
          fp.indexOf(`Report of system ${system(qf[0].runB!)} on`) > b,
      );
      for (const run of RUNS) assert.ok(!fp.includes(run), "no run name on a preference item");
      await ask(ws, `/annotate/${f.get("a")}/${qf[0].itemId}`, form({ label: "B" }));
      await ask(ws, `/annotate/${f.get("a")}/${qf[1].itemId}`, form({ label: "tie" }));
      // A token of one task cannot reach another task's items.
      assert.equal((await ask(ws, `/annotate/${p.get("a")}/${qf[0].itemId}`)).status, 403);
    } finally {
      ws.close();
    }
    const exported = async (task: string, who: string) => {
      const out = join(dir, task);
      const io = memoryIo();
      assert.equal(
        await main(
          ["annotate", "export", "--workspace", dir, "--task", task, "--out", out],
          io,
          COMMANDS,
        ),
        0,
      );
      return {
        lines: (await Deno.readTextFile(join(out, `${who}.jsonl`))).trim().split("\n").filter(
          Boolean,
        ).map((l) => JSON.parse(l)),
        err: io.stderr(),
      };
    };
    const ws2 = await openWorkspace(dir, { readOnly: true });
    const qp = await readAnnotatorQueue(ws2, "passages", "a");
    const qn = await readAnnotatorQueue(ws2, "nuggets", "b");
    const qf = await readAnnotatorQueue(ws2, "preference", "a");
    ws2.close();
    const passagesA = (await exported("passages", "a")).lines;
    assert.equal(passagesA.length, 3);
    assert.deepEqual(passagesA.find((l) => l.document === qp[0].passageId), {
      id: qp[0].topicId,
      document: qp[0].passageId,
      relevances: { "0": 4, "1": 0 },
      rationales: {},
    });
    // Answerable at >= 3: a = [1,0, 0,1, 1,1], b = [1,0, 0,1, 0,1]: p_o = 5/6,
    // p_e = 4/6 * 3/6 + 2/6 * 3/6 = 1/2, Cohen's kappa = (5/6 - 1/2) / (1/2) = 2/3.
    const agree = memoryIo();
    const files = ["a", "b"].map((w) => join(dir, "passages", `${w}.jsonl`));
    assert.equal(
      await main(["agreement", "--labels", ...files, "--format", "json"], agree, COMMANDS),
      0,
      agree.stderr(),
    );
    const kappa = JSON.parse(agree.stdout());
    assert.equal(kappa.kind, "passage");
    assert.equal(kappa.items, 6);
    assert.ok(Math.abs(kappa.cohen_kappa[0][1] - 2 / 3) < 1e-12, String(kappa.cohen_kappa[0][1]));
    const nug = await exported("nuggets", "b");
    assert.deepEqual(nug.lines, [{
      qid: qn[0].topicId,
      run_id: qn[0].run,
      nuggets: [
        { text: `Nugget 1 of ${qn[0].topicId}`, importance: "vital", assignment: "support" },
        { text: `Nugget 2 of ${qn[0].topicId}`, importance: "okay", assignment: "partial_support" },
      ],
    }]);
    const pref = await exported("preference", "a");
    assert.deepEqual(pref.lines.map((l) => [l.id, l.preference, l.run_a, l.run_b]), [
      [qf[0].topicId, -1, qf[0].run, qf[0].runB],
      [qf[1].topicId, 0, qf[1].run, qf[1].runB],
    ]);
    assert.equal(pref.lines[0].answer_a, report(qf[0].run!, qf[0].topicId));
    assert.equal(pref.lines[0].question, `Request of ${qf[0].topicId}`);
  },
});

Deno.test("plain crux serve stays read-only and has no annotation pages; bad create options", async () => {
  const dir = await workspace();
  const tokens = await create(
    dir,
    ["--task", "preference", "--annotators", "a,b"].concat(["--per-condition", "1"]),
  );
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    const r = await explorerResponse(
      ws,
      new Request(`http://127.0.0.1/annotate/${tokens.get("a")}`),
    );
    assert.equal(r.status, 404);
    const w = await explorerResponse(
      ws,
      new Request(`http://127.0.0.1/annotate/${tokens.get("a")}/x`, { method: "POST" }),
    );
    assert.equal(w.status, 405);
  } finally {
    ws.close();
  }
  const io = memoryIo();
  assert.equal(
    await main(
      [
        "annotate",
        "create",
        "--workspace",
        dir,
        "--task",
        "passages",
        "--annotators",
        "a,b",
        "--overlap",
        "3",
      ],
      io,
      COMMANDS,
    ),
    2,
  );
  assert.match(io.stderr(), /--overlap must be 1 to 2 \(the annotators\), got 3/);
  const again = memoryIo();
  const repeat = [
    "annotate",
    "create",
    "--workspace",
    dir,
    "--task",
    "preference",
    "--annotators",
    "a",
  ];
  assert.equal(await main(repeat.concat(["--per-condition", "1"]), again, COMMANDS), 2);
  assert.match(again.stderr(), /already holds a preference task with 0 label\(s\).*--replace/);
  assert.equal(
    await main(repeat.concat(["--per-condition", "1", "--replace"]), memoryIo(), COMMANDS),
    0,
  );
  const io2 = memoryIo();
  assert.equal(
    await main(
      [
        "annotate",
        "create",
        "--workspace",
        dir,
        "--task",
        "answerability",
        "--annotators",
        "a",
        "--per-condition",
        "5",
      ],
      io2,
      COMMANDS,
    ),
    2,
  );
  assert.match(
    io2.stderr(),
    /Condition "direct-secret" has 4, "rag-secret" has 4 reports on topics with sub-questions, fewer than --per-condition 5; the largest --per-condition that works is 4/,
  );
});

Deno.test({
  name: "annotation in headless Chromium: fill and submit a form, reload, restart, progress kept",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await workspace();
    const tokens = await create(dir, [
      "--task",
      "answerability",
      "--annotators",
      "a,b",
      "--per-condition",
      "1",
    ]);
    const queue = await queueOf(dir, "answerability", "a");
    assert.equal(queue.length, 4);
    let server = await serveWorkspace(dir, { port: 0, annotate: true });
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
    try {
      const page = await browser.newPage();
      const home = () => `${server.url}/annotate/${tokens.get("a")}`;
      let start = performance.now();
      await page.goto(home(), { waitUntil: "load" });
      const timings = [`queue ${(performance.now() - start).toFixed(0)} ms`];
      assert.match(await page.innerText("body"), /Progress: 0 \/ 4 done/);
      await page.click("text=Continue with the next item");
      assert.ok(page.url().endsWith(`/${queue[0].itemId}`));
      // Both sub-questions of the report on one page, saved together.
      await page.check('input[name="label-0"][value="1"]');
      await page.fill('textarea[name="span-0"]', span);
      await page.check('input[name="label-1"][value="0"]');
      assert.equal(await page.isDisabled('textarea[name="span-1"]'), true);
      await page.screenshot({ path: join(dir, "annotate_item.png") });
      await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
      // The browser's own POST (with its Origin header) was accepted and stored.
      assert.ok(page.url().endsWith(`/${queue[2].itemId}`), page.url());
      start = performance.now();
      await page.reload({ waitUntil: "load" });
      timings.push(`item ${(performance.now() - start).toFixed(0)} ms`);
      console.log(`annotation page loads: ${timings.join(", ")}`);
      assert.match(await page.innerText("body"), /Unit 2 of 2/);
      assert.match(await page.innerText("body"), /Progress: 2 \/ 4 done/);
      // Leaving the form empty: the browser refuses to submit (required), nothing stored.
      await page.click('button[type="submit"]');
      assert.equal(
        await page.$eval(
          "form",
          (f) => (f as unknown as { checkValidity(): boolean }).checkValidity(),
        ),
        false,
      );
      assert.equal(await page.evaluate(() => (globalThis as { __hit?: number }).__hit), undefined);
      // Kill the server mid-task and start another: the annotator resumes where they stopped.
      await server.shutdown();
      server = await serveWorkspace(dir, { port: 0, annotate: true });
      await page.goto(home(), { waitUntil: "load" });
      const text = await page.innerText("body");
      assert.match(text, /Progress: 2 \/ 4 done/);
      await page.click("text=Continue with the next item");
      assert.ok(page.url().endsWith(`/${queue[2].itemId}`));
      await page.screenshot({ path: join(dir, "annotate_queue.png") });
    } finally {
      await browser.close();
      await server.shutdown();
    }
    const labels = await readLabels(dir);
    assert.deepEqual(labels.map((l) => [l.annotator, l.itemId, l.label, l.span]), [
      ["a", queue[0].itemId, "1", span],
      ["a", queue[1].itemId, "0", undefined],
    ]);
  },
});
