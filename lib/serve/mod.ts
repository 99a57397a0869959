/**
 * A local web app over one experiment workspace: an explorer with an
 * experiment page (runs, stages, the gallery), topic pages (sub-questions, P*,
 * each run's passages with their ratings), report pages (every method's
 * verdicts, located spans highlighted) and compare pages (two reports side by
 * side with their measured differences). Pages are rendered on the server and
 * escape every text from the corpus and the models.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveWorkspace } from "@lib/serve/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir(); // normally outputs/<experiment>
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * ws.close();
 * const server = await serveWorkspace(dir, { port: 0 }); // any free port
 * const page = await (await fetch(`${server.url}/topic/sample-01`)).text();
 * assert.ok(page.includes("sample-01"));
 * await server.shutdown();
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
export { comparePage } from "./compare_page.ts";
export { experimentPage } from "./experiment_page.ts";
export { markSpans, reportPage } from "./report_page.ts";
export { topicPage, type TopicPageOptions } from "./topic_page.ts";
export {
  explorerResponse,
  type ExplorerResponseOptions,
  type ExplorerServer,
  isLoopback,
  type ServeOptions,
  serveWorkspace,
} from "./serve_workspace.ts";
export { type AnnotateOptions, annotateResponse } from "./annotate_response.ts";
export { checkPublicUrl } from "./_origins.ts";
export {
  ANNOTATION_TASKS,
  type AnnotationTaskOptions,
  createAnnotationTask,
  type CreatedAnnotationTask,
  type StudyDesign,
  tokenHash,
} from "./create_annotation_task.ts";
export {
  type AnnotationExport,
  exportAnnotations,
  type ExportSource,
  openForExport,
} from "./export_annotations.ts";
