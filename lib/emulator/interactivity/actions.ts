/**
 * A member acting on an interactive element of an app's message or view, from the admin surface:
 *
 * - POST {base}/admin/act/click `{"action_id", "block_id"?, "value"?, "channel"+"ts" | "view_id", "user"?, "team_id"?}`:
 *   a `block_actions` payload (a button pressed, an option, user, conversation, channel, date or time chosen,
 *   boxes checked: `value` is the choice, a list for multi-selects and checkboxes), with its `actions`,
 *   `container`, `state.values`, a trigger_id and, on a message, a response_url.
 * - POST {base}/admin/act/suggest `{"action_id", "block_id"?, "value"?, …where}`: a member types into an
 *   external select; the app is asked for options (`block_suggestion`, to its Options Load URL) and they are
 *   answered to the caller.
 *
 * The element must be in the blocks: 404 action_not_found otherwise.
 */
import { z } from "zod";
import { touch } from "../core/change-tracking";
import { WebApiError } from "../core/errors";
import type { RequestContext } from "../types";
import { optionsLoadUrlOf, interactivityUrlOf } from "./app-config";
import { actionOf, choiceFields, findElement } from "./block-walk";
import { adminWorkspace, actingMember, actionTs, commonPart, locate, mintTrigger, requireApp } from "./parts";
import { blocksOf, containerOf, placeFields } from "./places";
import { answerCaller, answerObject, interact, settle } from "./run";
import { offeredKey, rememberSuggested, suggestedOptions, viewEntries } from "./side-state";

const Where = {
  channel: z.string().optional(),
  ts: z.string().optional(),
  view_id: z.string().optional(),
  user: z.string().optional(),
  team_id: z.string().optional(),
};

export const ClickBody = z.strictObject({
  ...Where,
  action_id: z.string().min(1),
  block_id: z.string().optional(),
  value: z.union([z.string(), z.array(z.string()).max(100)]).optional(),
});

export const SuggestBody = z.strictObject({ ...Where, action_id: z.string().min(1), block_id: z.string().optional(), value: z.string().max(200).optional() });

export async function click(ctx: RequestContext, body: z.infer<typeof ClickBody>): Promise<Response> {
  const ws = adminWorkspace(ctx.state, body.team_id);
  const user = actingMember(ws, body.user);
  const place = locate(ctx, ws, user, body);
  const app = requireApp(ctx.state, place.installation.appId);
  const found = findElement(blocksOf(place), body.action_id, body.block_id);
  const fields = choiceFields(found.element, body.value, suggestedOptions(ctx.state, offeredKey(user, place, found.blockId, String(found.element.action_id))));
  const entry = { type: found.element.type, ...fields };
  const stateful = found.element.type !== "button" && found.element.type !== "overflow";
  const entered: Record<string, Record<string, Record<string, unknown>>> = {};
  if (stateful && place.kind === "view") {
    const entries = viewEntries(ctx.state, place.view.id);
    (entries.values[found.blockId] ??= {})[found.element.action_id as string] = entry;
  } else if (stateful) entered[found.blockId] = { [found.element.action_id as string]: entry };
  const viewId = place.kind === "view" && place.view.type === "modal" ? place.view.id : undefined;
  const triggerId = mintTrigger(ctx, ws, app.id, user, viewId);
  const payload: Record<string, unknown> = {
    type: "block_actions",
    ...commonPart(ctx, ws, app, user),
    container: containerOf(place),
    trigger_id: triggerId,
    ...placeFields(ctx, place, user, entered, true),
    actions: [actionOf(found, fields, actionTs(ctx.clock.now()))],
  };
  const { entry: recorded } = await interact(ctx, {
    app,
    installation: place.installation,
    type: "block_actions",
    user,
    ...(place.kind === "message" ? { channel: place.channel.id } : {}),
    url: interactivityUrlOf(app),
    envelope: { type: "interactive", payload },
    acceptsResponse: false,
  });
  return answerCaller(recorded, { trigger_id: triggerId, ...(typeof payload.response_url === "string" ? { response_url: payload.response_url } : {}) });
}

const isOption = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export async function suggest(ctx: RequestContext, body: z.infer<typeof SuggestBody>): Promise<Response> {
  const ws = adminWorkspace(ctx.state, body.team_id);
  const user = actingMember(ws, body.user);
  const place = locate(ctx, ws, user, body);
  const app = requireApp(ctx.state, place.installation.appId);
  const found = findElement(blocksOf(place), body.action_id, body.block_id);
  if (found.element.type !== "external_select" && found.element.type !== "multi_external_select") {
    throw new WebApiError(
      "not_external_select",
      { message: `${body.action_id} is a ${String(found.element.type)}: only external selects ask the app for options.` },
      { status: 409 },
    );
  }
  const payload = {
    type: "block_suggestion",
    ...commonPart(ctx, ws, app, user),
    container: containerOf(place),
    action_id: body.action_id,
    block_id: found.blockId,
    value: body.value ?? "",
    action_ts: actionTs(ctx.clock.now()),
    ...placeFields(ctx, place, user, {}, false),
  };
  const { exchanged, entry } = await interact(ctx, {
    app,
    installation: place.installation,
    type: "block_suggestion",
    user,
    ...(place.kind === "message" ? { channel: place.channel.id } : {}),
    url: optionsLoadUrlOf(app),
    envelope: { type: "interactive", payload },
    acceptsResponse: true,
  });
  if (!exchanged.failure) {
    const answer = answerObject(exchanged.answer);
    const offered = (list: unknown[]) =>
      rememberSuggested(ctx.state, offeredKey(user, place, found.blockId, String(found.element.action_id)), list.filter(isOption));
    if (answer && Array.isArray(answer.options)) {
      settle(entry, "options", { options: answer.options });
      offered(answer.options);
    } else if (answer && Array.isArray(answer.option_groups)) {
      settle(entry, "options", { option_groups: answer.option_groups });
      offered(answer.option_groups.flatMap((g) => (isOption(g) && Array.isArray(g.options) ? g.options : [])));
    } else settle(entry, "invalid_answer");
  }
  touch(entry);
  return answerCaller(entry);
}
