/**
 * `POST {base}/admin/triggers`: a member interacts with an app (a slash command, a shortcut, a button), so
 * the app gets a trigger_id to open a modal with (views.open), or, when the interaction happened inside
 * one of its open modals (`view_id`), to push onto it (views.push). The platform hands a trigger id to the
 * app with the interaction's payload, as the emulator's interactions do (interactivity/); here a test asks
 * for one without an interaction and passes it to the app. Good once, for 3 seconds of the emulator's clock
 * (workspace/views.ts).
 */
import { z } from "zod";
import { WebApiError } from "../core/errors";
import { parseAdminBody, requireTargetInstallation } from "./admin-target";
import { workspaceOf } from "../store";
import type { RequestContext } from "../types";
import { installingUserId, memberIndexOf } from "../workspace/members";
import { issueTrigger, TRIGGER_LIFETIME_MS } from "../workspace/views";

const TriggerBody = z
  .object({
    /** The installation whose app gets the trigger; or `app_id` (its installation in `team_id`, default the first workspace). */
    installation_id: z.string().optional(),
    app_id: z.string().optional(),
    team_id: z.string().optional(),
    /** Who interacts; default the workspace's primary owner. */
    user: z.string().optional(),
    /** An open modal of that member from that app the interaction happened in. */
    view_id: z.string().optional(),
  })
  .refine((b) => b.installation_id !== undefined || b.app_id !== undefined, "give installation_id or app_id");

export interface IssuedTrigger {
  trigger_id: string;
  app_id: string;
  team_id: string;
  user_id: string;
  view_id: string | null;
  expires_in: number;
}

export function issueAdminTrigger(ctx: RequestContext, body: unknown): IssuedTrigger {
  const request = parseAdminBody(TriggerBody, body);
  const { state } = ctx;
  const installation = requireTargetInstallation(state, request);
  const ws = workspaceOf(state, installation.teamId);
  const user = request.user ?? installingUserId(ws);
  if (memberIndexOf(ws, user) < 0) throw new WebApiError("user_not_found", {}, { status: 404 });
  if (request.view_id !== undefined) {
    const view = ws.views.views.get(request.view_id);
    if (!view || view.type !== "modal" || view.appId !== installation.appId || view.userId !== user) {
      throw new WebApiError("view_not_found", {}, { status: 404 });
    }
  }
  const trigger = issueTrigger(ws.views, { appId: installation.appId, userId: user, viewId: request.view_id }, ctx.clock.now());
  return {
    trigger_id: trigger.id,
    app_id: trigger.appId,
    team_id: ws.team.id,
    user_id: trigger.userId,
    view_id: trigger.viewId ?? null,
    expires_in: TRIGGER_LIFETIME_MS / 1000,
  };
}
