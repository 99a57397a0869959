/**
 * Every figure of two experiments — the sample (the demo) and a 50-topic
 * release-format experiment with two imported runs — checked as saved: each
 * condition keeps the colour and shape of the experiment's stored palette in
 * every figure (a generation run looks like its pipeline, references keep
 * their reserved styles), no text marks overlap in the rendered scene, y
 * axes stay within the measures' ranges, and the gallery, opened in headless
 * Chromium, shows every figure and table file on disk.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runDemo } from "@lib/experiment/mod.ts";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { writeReleaseFixture } from "../support/release_fixture.ts";
import { checkExperiment, checkGallery } from "./_experiment_checks.ts";
import { overlappingTexts, renderedScene } from "./_figure_checks.ts";

const root = new URL("../../", import.meta.url).pathname;

Deno.test({
  name:
    "figures of the sample and of a 50-topic release experiment: one style per condition, no overlap, axes in range, a complete gallery",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const demo = await Deno.makeTempDir({ prefix: "crux-style-demo-" });
    const fixture = await Deno.makeTempDir({ prefix: "crux-style-release-" });
    const experiment = `style-release-${crypto.randomUUID().slice(0, 8)}`;
    const release = join(root, "outputs", experiment);
    try {
      await t.step("the sample (demo)", async () => {
        await runDemo({ dir: demo });
        await checkExperiment(demo, ["nugget_agreement", "nugget_support"]);
        await checkGallery(demo);
      });
      await t.step("50 topics from release files, two imported runs", async () => {
        const config = await writeReleaseFixture(fixture, 50);
        const io = memoryIo();
        const code = await main(
          ["run", "--config", config, "--experiment", experiment],
          io,
          COMMANDS,
        );
        assert.equal(code, 0, io.stderr());
        await checkExperiment(release, []);
        await checkGallery(release);
      });
    } finally {
      await Deno.remove(demo, { recursive: true }).catch(() => {});
      await Deno.remove(fixture, { recursive: true }).catch(() => {});
      await Deno.remove(release, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("the overlap check finds labels drawn on one spot and passes labels placed apart", async () => {
  const spec = (positions: [number, number][]) => ({
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 200,
    height: 100,
    data: { values: positions.map(([x, y], i) => ({ x, y, label: `run-${i}` })) },
    mark: { type: "text", fontSize: 7 },
    encoding: {
      x: { field: "x", type: "quantitative", scale: { domain: [0, 1] } },
      y: { field: "y", type: "quantitative", scale: { domain: [0, 1] } },
      text: { field: "label" },
    },
  });
  const blob = await renderedScene(spec([[0.5, 0.5], [0.52, 0.5], [0.5, 0.52]]));
  assert.deepEqual(overlappingTexts(blob.texts), [
    '"run-0" / "run-1"',
    '"run-0" / "run-2"',
    '"run-1" / "run-2"',
  ]);
  assert.deepEqual(blob.yDomains.map((d) => d.domain), [[0, 1]]);
  const apart = await renderedScene(spec([[0.2, 0.2], [0.5, 0.5], [0.8, 0.8]]));
  assert.deepEqual(overlappingTexts(apart.texts), []);
});
