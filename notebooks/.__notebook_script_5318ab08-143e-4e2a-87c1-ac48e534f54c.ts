
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
// cell 0
console.log("<<cell 0>>");
// Parameters
const experiment = Deno.env.get("CRUX_EXPERIMENT") ?? "sample";
// Relative to notebooks/ (or absolute); configs/online.json uses a model endpoint.
const configFile = Deno.env.get("CRUX_CONFIG") ?? "configs/sample-offline.json";
// Key point settings (rounds, buckets, ...) come from the config's "keypoints" section. To see a
// variation, name it here, e.g. { name: "rounds2", settings: { rounds: 2 } }: it runs in its own
// workspace outputs/<experiment>.<name> and never replaces the config's rows.
const overlay: { name: string; settings: Record<string, unknown> } | undefined = undefined;

// cell 1
console.log("<<cell 1>>");
import { experimentPaths, methodView } from "@lib/analysis/mod.ts";
import { loadExperimentConfig } from "@lib/pipeline/mod.ts";
const paths = experimentPaths(experiment);
const config = await loadExperimentConfig(configFile, { experiment, root: paths.root });
console.log(`experiment ${config.name}: workspace ${config.workspace}`);
console.log(
  config.methods?.keypoints === undefined
    ? 'the config has no "keypoints" section: the method runs with its defaults'
    : `settings from the config's "keypoints" section: ${JSON.stringify(config.methods.keypoints)}`,
);

// cell 2
console.log("<<cell 2>>");
import { openWorkspace } from "@lib/store/mod.ts";
// The experiment up to its measures with the key point stages the config declares: the same
// stage instances as `crux run`, so after it every stage is up to date (an overlay runs apart).
const view = await methodView(config, "keypoints", {
  overlay,
  onEvent: (e) => console.log(`[${e.stage}] ${e.message}`),
});
console.log(`${view.stages.ran.length} stages ran, ${view.stages.fresh.length} up to date`);
const ws = await openWorkspace(view.workspace, { readOnly: true });

// cell 3
console.log("<<cell 3>>");
import { saveAnalysis } from "@lib/analysis/mod.ts";
import { displayFigure, displayTable } from "@lib/report/mod.ts";
// The tables and figures of the analyze stage for this section, saved where `crux run` saves them
// (an overlay's under its own workspace).
const analyses = view.analyses;
for (const a of analyses) await saveAnalysis(a, view.workspace);
const byName = (name: string) => analyses.find((a) => a.name === name)!;
await Deno.jupyter.display(displayTable(byName("keypoint_extraction").table!));

// cell 4
console.log("<<cell 4>>");
// A few original key points with their span checks, and what a span the passage never held gives.
import { findSpan } from "@lib/keypoints/mod.ts";
const sample = await ws.query<
  { topicId: string; keypointId: string; docId: string; spans: string[]; spanStatus: string[] }
>(
  "SELECT topic_id, keypoint_id, doc_id, spans, span_status FROM keypoints WHERE level = 'original' ORDER BY topic_id, round, doc_id LIMIT 3",
);
for (const k of sample) {
  console.log(
    `${k.topicId}/${k.keypointId} (${k.docId}) ${k.spanStatus.join(", ")}: "${
      k.spans[0]?.slice(0, 80)
    }"`,
  );
}
const passage =
  (await ws.query<{ text: string }>("SELECT text FROM passages WHERE passage_id = $1", [
    sample[0].docId,
  ]))[0].text;
Deno.jupyter.display(console.log(`made-up span: ${findSpan("a sentence this passage never contained", passage)}`));

// cell 5
console.log("<<cell 5>>");
await Deno.jupyter.display(displayTable(byName("keypoint_merge_map").table!));

// cell 6
console.log("<<cell 6>>");
await Deno.jupyter.display(displayTable(byName("keypoint_scores").table!));
await Deno.jupyter.display(await displayFigure(byName("keypoint_scores").figure!));

// cell 7
console.log("<<cell 7>>");
await Deno.jupyter.display(await displayFigure(byName("keypoint_length_input").figure!));
await Deno.jupyter.display(await displayFigure(byName("keypoint_length_response").figure!));

// cell 8
console.log("<<cell 8>>");
await Deno.jupyter.display(displayTable(byName("keypoint_vs_crux").table!));
const vsCrux = byName("keypoint_vs_crux").figure;
if (vsCrux) await Deno.jupyter.display(await displayFigure(vsCrux));

// cell 9
console.log("<<cell 9>>");
import { formatKeyPoints } from "@lib/formats/mod.ts";
import { readStoredKeyPoints } from "@lib/keypoints/mod.ts";
const { keypoints, source } = await readStoredKeyPoints(ws, { level: "merged" });
ws.close();
const file = `${view.workspace}/keypoints.jsonl`;
await Deno.writeTextFile(file, formatKeyPoints(keypoints));
Deno.jupyter.display(console.log(`${keypoints.length} topics of key points (${source}) written to ${file}`));

console.log("<<displays>>" + JSON.stringify(globalThis.__cruxOutputs.map((b) => Object.keys(b))));
