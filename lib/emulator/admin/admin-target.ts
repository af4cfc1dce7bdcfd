/**
 * What the admin surface's actions on an app's behalf share (mentioning the app, issuing a trigger id): the
 * request body read by its schema, with every problem named, and the installation it names.
 */
import type { z } from "zod";
import { WebApiError } from "../core/errors";
import type { EmulatorState, Installation } from "../types";

/** The body as `schema` reads it, or 400 invalid_arguments naming each problem. */
export function parseAdminBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
  throw new WebApiError("invalid_arguments", { detail }, { status: 400 });
}

/** The installation named by id, or by app in a workspace (default the first): 404 installation_not_found otherwise. */
export function requireTargetInstallation(state: EmulatorState, target: { installation_id?: string; app_id?: string; team_id?: string }): Installation {
  const installation = target.installation_id
    ? state.installations.get(target.installation_id)
    : [...state.installations.values()].find((i) => i.appId === target.app_id && i.teamId === (target.team_id ?? state.workspace.team.id));
  if (!installation || installation.uninstalled) throw new WebApiError("installation_not_found", {}, { status: 404 });
  return installation;
}
