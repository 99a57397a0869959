/**
 * Tables are views of the measure table: on the demo, every numeric cell of
 * every saved table is named in `tables/<name>.cells.jsonl` and equals the
 * stored `measures` row its line names (or is a statistic derived from stored
 * rows, named as such), every blank cell it names has a reason, and a stored
 * row shown in two tables shows one value. The checker fails on a table that
 * shows another value than its stored row, or that has no cells file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runDemo } from "@lib/experiment/mod.ts";
import { openWorkspace, readCaveats } from "@lib/store/mod.ts";
import { checkCells, parseCsv } from "../support/check_cells.ts";
import type { CellSource } from "@lib/analysis/mod.ts";

Deno.test({
  name: "demo: every numeric cell of every saved table is the stored row its cell key names",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-demo-cells-" });
    try {
      await runDemo({ dir });
      const checked = await checkCells(dir);
      // Every table of the demo shows numbers, and so has its cells file.
      assert.deepEqual(checked.plain, []);
      for (
        const name of [
          "context_evaluation",
          "context_size_table",
          "generation_overview",
          "keypoint_extraction",
          "keypoint_scores",
          "keypoint_vs_crux",
          "main_table",
          "method_answer_scores",
          "method_correlations",
          "method_disagreements",
          "method_significance",
          "method_system",
          "metric_correlations",
          "nugget_agreement",
          "nugget_scores",
          "nugget_topics",
          "report_scores",
          "subq_metrics",
          "threshold_table",
          "topic_coverage",
        ]
      ) assert.ok(checked.tables.includes(name), `${name}.cells.jsonl is saved`);
      // The main table and the report scores both show the report means, the
      // method tables the stored per-answer scores: the check is not empty.
      assert.ok(checked.stored > 500, `${checked.stored} cells show stored rows`);
      assert.ok(checked.shared >= 5, `stored rows shown in two tables (${checked.shared})`);
      // Every key and every input names its stored row's topic set.
      assert.ok(checked.topicSets > checked.stored, `topic sets checked (${checked.topicSets})`);
      // The main table's taus and the threshold table's statistics are stored rows.
      assert.ok(
        checked.statistics >= 28,
        `cells showing stored statistics (${checked.statistics})`,
      );
      // So are the comparison's paired tests: every difference and p-value cell names
      // its stored statistic (the checker compared it), none is computed in the view.
      const tests =
        (await Deno.readTextFile(join(dir, "tables", "method_significance.cells.jsonl")))
          .trim().split("\n").map((l) => JSON.parse(l) as CellSource)
          .filter((c) => c.column !== "topics");
      assert.ok(tests.length > 0, "method_significance has test cells");
      for (const c of tests) {
        assert.ok(
          c.statistic || (c.reason && !c.derived),
          `${c.row} / ${c.column}: ${JSON.stringify(c)}`,
        );
      }

      // The report lengths against their budgets are stored rows too: 9 conditions x
      // 10 topics, each with its Tokens, Budget, Tokens/Budget and ContextPassages row.
      const overview =
        (await Deno.readTextFile(join(dir, "tables", "generation_overview.cells.jsonl")))
          .trim().split("\n").map((l) => JSON.parse(l) as CellSource);
      assert.equal(overview.length, 360);
      assert.deepEqual(
        [...new Set(overview.map((c) => c.key?.measure ?? `not stored: ${JSON.stringify(c)}`))],
        ["Tokens", "Budget", "Tokens/Budget", "ContextPassages"],
      );

      // Every saved table's notes are its stored caveats, in order, in every view.
      const ws = await openWorkspace(dir, { readOnly: true });
      try {
        const tables = [...Deno.readDirSync(join(dir, "tables"))].map((e) => e.name)
          .filter((n) => n.endsWith(".csv")).map((n) => n.replace(/\.csv$/, "")).sort();
        let caveats = 0;
        for (const name of tables) {
          const stored = (await readCaveats(ws, name)).map((c) => c.text);
          const csv = await Deno.readTextFile(join(dir, "tables", `${name}.csv`));
          const md = await Deno.readTextFile(join(dir, "tables", `${name}.md`));
          for (const text of stored) {
            assert.ok(csv.includes(`# ${text}\n`), `${name}.csv shows caveat "${text}"`);
            assert.ok(md.replaceAll("\\", "").includes(text), `${name}.md shows caveat "${text}"`);
          }
          const csvNotes = csv.split("\n").filter((l) => l.startsWith("# ")).length;
          // The CSV's comment lines: the caption and the stored caveats.
          assert.equal(csvNotes, stored.length + 1, `${name}: the CSV shows the stored caveats`);
          caveats += stored.length;
        }
        assert.ok(caveats > tables.length, `caveats stored (${caveats})`);
        const direct = (await readCaveats(ws, "main_table")).find((c) => c.row !== "")!;
        assert.equal(direct.row, "Direct (no context)");
      } finally {
        ws.close();
      }

      const cells = async (name: string) =>
        (await Deno.readTextFile(join(dir, "tables", `${name}.cells.jsonl`))).trim().split("\n")
          .map((l) => JSON.parse(l));
      // The key point tables count nothing in the view: the extraction's counts and
      // their totals are stored rows, a run's topics its stored KPR mean's `topics`.
      for (const name of ["keypoint_extraction", "keypoint_scores"]) {
        const derived = (await cells(name)).filter((c: CellSource) => c.derived);
        assert.deepEqual(derived, [], `${name} has no derived cell`);
      }
      // Nor do the comparison's tables and the report scores: a run's topics and
      // its system means are the compare stage's stored rows, a pair's runs its
      // stored `runs` row, a condition's topics its stored Cov(y) mean's `topics`.
      for (const name of ["method_system", "method_correlations", "report_scores"]) {
        const derived = (await cells(name)).filter((c: CellSource) => c.derived && !c.statistic);
        assert.deepEqual(derived, [], `${name} has no cell computed in the view`);
      }
      const system = await cells("method_system");
      const systemCell = (column: string) =>
        system.find((c: CellSource) => c.row === "3. rag-bm25" && c.column === column);
      assert.deepEqual([systemCell("topics").key, systemCell("topics").shows], [{
        run: "rag-bm25",
        source: "shared:crux",
        judge: "lexical",
        measure: "Cov",
        topicId: "all",
        topicSet: "scored(n=10)",
      }, "topics"]);
      assert.equal(systemCell("keypoints").key.source, "shared:keypoints");
      const pairRuns = (await cells("method_correlations")).find((c: CellSource) =>
        c.row === "CRUX Cov ~ KPR" && c.column === "runs"
      );
      assert.deepEqual([pairRuns.key.run, pairRuns.key.measure], ["crux~keypoints", "runs"]);
      const reportTopics = (await cells("report_scores")).find((c: CellSource) =>
        c.row === "bm25" && c.column === "topics"
      );
      assert.deepEqual([reportTopics.shows, reportTopics.key.measure], ["topics", "Cov"]);
      // So do the nugget tables: the topic counts and a run's failed labels are stored
      // rows of the nugget measure stage; the agreement's cells name stored statistics.
      for (const name of ["nugget_topics", "nugget_scores", "nugget_agreement"]) {
        const derived = (await cells(name)).filter((c: CellSource) => c.derived && !c.statistic);
        assert.deepEqual(derived, [], `${name} has no derived cell but stored statistics`);
      }
      const nuggetTopics = await cells("nugget_topics");
      assert.equal(nuggetTopics.length, 70);
      assert.deepEqual(
        nuggetTopics.find((c: CellSource) => c.row === "sample-04" && c.column === "vital").key,
        {
          run: "",
          source: "created:offline",
          judge: "",
          measure: "nugget_vital",
          topicId: "sample-04",
          topicSet: "topic(id=sample-04)",
        },
      );
      const failedLabels = (await cells("nugget_scores")).filter((c: CellSource) =>
        c.column === "failed"
      );
      assert.equal(failedLabels.length, 9);
      assert.deepEqual(failedLabels[0].key, {
        run: "direct",
        source: "created:offline",
        judge: "lexical-nuggets",
        measure: "nugget_labels_failed",
        topicId: "all",
        topicSet: "judged(n=10)",
      });
      const total = (await cells("keypoint_extraction")).find((c: CellSource) =>
        c.row === "all" && c.column === "original"
      );
      assert.deepEqual(total.key, {
        run: "",
        source: "extracted:offline-salient",
        judge: "",
        measure: "kp_original",
        topicId: "all",
        topicSet: "judged(n=10)",
      });
      const topics = (await cells("keypoint_scores")).find((c: CellSource) =>
        c.row === "rag-bm25" && c.column === "topics"
      );
      assert.deepEqual([topics.shows, topics.key.measure], ["topics", "KPR"]);
      // The comparison's correlations are the stored `compare` rows (the
      // stage leaves out the run whose reports are all empty, as the table does).
      const kendall = (await cells("method_correlations")).find((c) =>
        c.row === "CRUX Cov ~ KPR" && c.column === "kendall"
      );
      assert.deepEqual(kendall.key, {
        run: "crux~keypoints",
        source: "",
        judge: "lexical~offline-lexical",
        measure: "kendall_tau_b",
        topicId: "all",
        // The comparison runs over the answers every method scored: the demo's 10 topics.
        topicSet: "scored(n=10)",
      });
      // A per-answer score names its (run, topic) row; repeated topic labels are told apart by row.
      const answer = (await cells("method_answer_scores")).find((c) =>
        c.row === "sample-01" && c.column === "keypoints" && c.key.run === "rag-bm25"
      );
      assert.deepEqual(answer.key, {
        run: "rag-bm25",
        source: answer.key.source,
        judge: "offline-lexical",
        measure: "KPR",
        topicId: "sample-01",
        topicSet: "topic(id=sample-01)",
      });
      // The correlation table states the topic set its stored rows state.
      assert.ok(
        (await Deno.readTextFile(join(dir, "tables", "method_correlations.csv"))).includes(
          "# Correlations over the topic set scored(n=10): the topics of the answers every compared method scored.\n",
        ),
      );
      const [, ...rows] = parseCsv(
        await Deno.readTextFile(join(dir, "tables", "method_answer_scores.csv")),
      );
      assert.deepEqual(rows[answer.index].slice(0, 2), ["sample-01", "rag-bm25"]);

      // A table showing another value than its stored row fails the check, naming the cell.
      const file = join(dir, "tables", "keypoint_scores.csv");
      const csv = await Deno.readTextFile(file);
      const kpr = (await cells("keypoint_scores")).find((c) =>
        c.row === "rag-bm25" && c.column === "KPR"
      );
      const shown = parseCsv(csv)[kpr.index + 1][kpr.position + 1];
      await Deno.writeTextFile(
        file,
        csv.replace(`\nrag-bm25,${shown},`, `\nrag-bm25,${Number(shown) + 0.01},`),
      );
      await assert.rejects(
        () => checkCells(dir),
        /keypoint_scores\.cells\.jsonl:\d+ \(rag-bm25 \/ KPR\): shows [\d.]+, the stored row is/,
      );
      await Deno.writeTextFile(file, csv);
      // So does a count of a test's topics that is not its stored statistic's `n`.
      const sigFile = join(dir, "tables", "method_significance.csv");
      const sigCsv = await Deno.readTextFile(sigFile);
      const pairLine = "\nCRUX Cov: oracle-context vs oracle-result,crux,10,";
      assert.ok(sigCsv.includes(pairLine));
      await Deno.writeTextFile(sigFile, sigCsv.replace(pairLine, pairLine.replace(",10,", ",9,")));
      await assert.rejects(
        () => checkCells(dir),
        /method_significance\.cells\.jsonl:\d+ \(CRUX Cov: oracle-context vs oracle-result \/ Topics\): shows 9, the stored statistic .* is over 10 values/,
      );
      await Deno.writeTextFile(sigFile, sigCsv);
      // So does a run's topic count that is not its stored system mean's `topics`.
      const systemFile = join(dir, "tables", "method_system.csv");
      const systemCsv = await Deno.readTextFile(systemFile);
      const runLine = "\n3. rag-bm25,runs,10,";
      assert.ok(systemCsv.includes(runLine));
      await Deno.writeTextFile(
        systemFile,
        systemCsv.replace(runLine, runLine.replace(",10,", ",9,")),
      );
      await assert.rejects(
        () => checkCells(dir),
        /method_system\.cells\.jsonl:\d+ \(3\. rag-bm25 \/ Topics\): shows 9, the stored row's topics are 10/,
      );
      await Deno.writeTextFile(systemFile, systemCsv);
      // So does a key whose topic set is not its stored row's, and a key that states none.
      const mainCells = join(dir, "tables", "main_table.cells.jsonl");
      const lines = await Deno.readTextFile(mainCells);
      const cov = lines.split("\n").find((l) => l.includes('"topicSet":"answerable(tau=3,n=10)"'))!;
      const line = lines.split("\n").indexOf(cov) + 1;
      await Deno.writeTextFile(
        mainCells,
        lines.replace(cov, cov.replace("answerable(tau=3,n=10)", "answerable(tau=3,n=9)")),
      );
      await assert.rejects(
        () => checkCells(dir),
        new RegExp(
          `main_table\\.cells\\.jsonl:${line} .*names topic set answerable\\(tau=3,n=9\\), the stored row's is answerable\\(tau=3,n=10\\)`,
        ),
      );
      await Deno.writeTextFile(
        mainCells,
        lines.replace(cov, cov.replace(/,"topicSet":"[^"]*"/, "")),
      );
      await assert.rejects(
        () => checkCells(dir),
        new RegExp(`main_table\\.cells\\.jsonl:${line} .*names topic set undefined`),
      );
      await Deno.writeTextFile(mainCells, lines);
      // So does a table with numbers and no cells file.
      await Deno.remove(join(dir, "tables", "nugget_scores.cells.jsonl"));
      await assert.rejects(
        () => checkCells(dir),
        /tables\/nugget_scores\.csv shows \d+ number\(s\) but has no nugget_scores\.cells\.jsonl/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
