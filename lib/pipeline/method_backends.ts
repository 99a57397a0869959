/**
 * Opening a method's backends inside the pipeline: offline ones, or the
 * method's factory given the model clients of its roles.
 *
 * @module
 */
import { type RoleClient, roleClient } from "@lib/construct/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import type { ExperimentMethod, MethodStageContext, OpenBackends } from "./method_stage.ts";

/**
 * The opener of a method's backends for its stages: offline the factory gets
 * no client; online it gets a client per role of the method, with calls cached
 * in the workspace.
 *
 * @param method The method (its roles and backends factory).
 * @param section The method's checked config section.
 * @param ctx The experiment's backend, model settings and environment.
 * @param only The roles whose clients to open (default: every role of the method), for a
 *   stage that needs one of them (the others' models need not be configured).
 * @returns A function opening the backends in a workspace.
 * @example
 * ```ts
 * import { methodBackends, type ExperimentMethod } from "@lib/pipeline/mod.ts";
 * const method: ExperimentMethod<{ n?: number }, string> = {
 *   key: "m", headlines: [], roles: ["judge"],
 *   backends: (c) => (c.judge ? "model" : `offline n=${c.section.n ?? 1}`),
 * };
 * const open = methodBackends(method, { n: 2 }, { backend: "offline" });
 * ```
 */
export function methodBackends<S, B>(
  method: ExperimentMethod<S, B>,
  section: S,
  ctx: Pick<MethodStageContext, "backend" | "llm" | "env">,
  only?: readonly ("judge" | "generator")[],
): OpenBackends<B> {
  return async (ws: Workspace) => {
    if (ctx.backend === "offline") return method.backends({ section });
    const clients: { judge?: RoleClient; generator?: RoleClient } = {};
    for (const role of method.roles.filter((r) => only?.includes(r) ?? true)) {
      clients[role] = await roleClient(ws, role, { config: ctx.llm, env: ctx.env });
    }
    return method.backends({ section, ...clients });
  };
}
