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
 * import { serveWorkspace } from "@lib/serve/mod.ts";
 * const server = await serveWorkspace("outputs/demo", { port: 0 });
 * console.log(`${server.url}/topic/sample-01`);
 * await server.shutdown();
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
export {
  ANNOTATION_TASKS,
  type AnnotationTaskOptions,
  createAnnotationTask,
  tokenHash,
} from "./create_annotation_task.ts";
export { type AnnotationExport, exportAnnotations } from "./export_annotations.ts";
