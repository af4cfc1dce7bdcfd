/**
 * A member submitting or closing one of an app's modals, from the admin surface:
 *
 * - POST {base}/admin/act/submit `{"view_id", "values"?: {block_id: {action_id: value}}, "user"?, "team_id"?}`:
 *   `view_submission` with the view's `state.values` (what was entered before, then `values`), its
 *   callback_id and private_metadata. The app's answer is honoured as the platform does: none closes the view
 *   (the one below shows again), `errors` keeps it open with each message under its block (answered to the
 *   caller), `update` replaces it, `push` stacks a new one (3 at most), `clear` closes them all.
 * - POST {base}/admin/act/close-view `{"view_id", "clear"?, "user"?, "team_id"?}`: the member closes it
 *   (`clear`: the whole stack); the app hears `view_closed` only if the view asked (`notify_on_close`).
 */
import { announceChange } from "../workspace/changes";
import { z } from "zod";
import { touch } from "../core/change-tracking";
import { WebApiError, jsonResponse } from "../core/errors";
import type { EmulatorState, Installation, RequestContext } from "../types";
import { checkView, wireView } from "../web-api/methods/views";
import { appUserKey, randomPlatformId, viewHash, type StoredView } from "../workspace/views";
import type { Workspace } from "../workspace/workspace";
import { interactivityUrlOf } from "./app-config";
import { choiceFields, findElement } from "./block-walk";
import { forgetClosedViews } from "./lifecycle";
import { adminWorkspace, actingMember, commonPart, locate, mintTrigger, requireApp } from "./parts";
import { viewWithState } from "./places";
import { answerCaller, answerObject, interact, settle } from "./run";
import { offeredKey, suggestedOptions, viewEntries } from "./side-state";

/** A modal and at most 2 views pushed onto it. */
const MAX_STACK = 3;

const Value = z.union([z.string(), z.array(z.string()).max(100)]);

export const SubmitBody = z.strictObject({
  view_id: z.string().min(1),
  values: z.record(z.string(), z.record(z.string(), Value)).optional(),
  user: z.string().optional(),
  team_id: z.string().optional(),
});

export const CloseBody = z.strictObject({
  view_id: z.string().min(1),
  clear: z.boolean().optional(),
  user: z.string().optional(),
  team_id: z.string().optional(),
});

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The member's open modal `viewId`, on top of their stack: what they can submit or close. */
function openModal(ctx: RequestContext, ws: Workspace, user: string, viewId: string) {
  const place = locate(ctx, ws, user, { view_id: viewId });
  if (place.kind !== "view" || place.view.type !== "modal") throw new WebApiError("view_not_found", {}, { status: 404 });
  const key = appUserKey(place.view.appId, user);
  const stack = ws.views.stacks.get(key) ?? [];
  if (stack.at(-1) !== place.view.id)
    throw new WebApiError("view_not_on_top", { message: "Only the view on top of the stack can be submitted or closed." }, { status: 409 });
  return { place, key, stack };
}

function closeTop(state: EmulatorState, ws: Workspace, key: string, stack: string[], all: boolean): void {
  const gone = all ? [...stack] : stack.slice(-1);
  for (const id of gone) {
    const view = ws.views.views.get(id);
    if (view) announceChange(ws, { type: "view", user: view.userId, app_id: view.appId, view_id: id, view_type: "modal", closed: true });
  }
  if (all || stack.length <= 1) ws.views.stacks.delete(key);
  else {
    stack.pop();
    touch(stack);
  }
  forgetClosedViews(state, ws, gone);
}

/**
 * A view the app answered with (`update`, `push`), checked as views.update and views.push check theirs: a
 * modal, its title, its Block Kit, every block given an id. A refusal is what the platform would answer
 * those methods (`invalid_arguments` with its messages, `view_too_large`); the modal stays as it was.
 */
function answeredView(raw: unknown): { view: Json } | { refusal: Json } {
  try {
    return { view: checkView(raw, ["modal"]) };
  } catch (error) {
    if (!(error instanceof WebApiError)) throw error;
    return { refusal: { error: error.code, ...error.extra } };
  }
}

function pushView(ctx: RequestContext, ws: Workspace, installation: Installation, below: StoredView, stack: string[], view: Json): StoredView {
  const id = randomPlatformId("V");
  const stored: StoredView = {
    id,
    teamId: ws.team.id,
    appId: installation.appId,
    botId: installation.botId,
    userId: below.userId,
    type: "modal",
    view,
    hash: viewHash(ctx.clock.now()),
    rootViewId: below.rootViewId,
    previousViewId: below.id,
    externalId: "",
  };
  ws.views.views.set(id, stored);
  stack.push(id);
  touch(stack);
  announceChange(ws, { type: "view", user: stored.userId, app_id: stored.appId, view_id: id, view_type: "modal", closed: false });
  return stored;
}

/** What the app's answer to a submission does: the outcome and what the caller is shown. */
function applyResponseAction(
  ctx: RequestContext,
  ws: Workspace,
  opened: ReturnType<typeof openModal>,
  answer: Json | undefined,
): { outcome: string; result?: Json } {
  const { place, key, stack } = opened;
  const action = answer?.response_action;
  if (action === undefined) {
    closeTop(ctx.state, ws, key, stack, false);
    return { outcome: "closed" };
  }
  if (action === "clear") {
    closeTop(ctx.state, ws, key, stack, true);
    return { outcome: "clear" };
  }
  if (action === "errors") {
    if (!isObject(answer?.errors)) return { outcome: "invalid_answer" };
    const errors = Object.fromEntries(Object.entries(answer.errors).map(([block, message]) => [block, String(message)]));
    viewEntries(ctx.state, place.view.id).errors = errors;
    return { outcome: "errors", result: { errors } };
  }
  if (action !== "update" && action !== "push") return { outcome: "invalid_answer" };
  // views.push's order: a full stack is refused before the view is read.
  if (action === "push" && stack.length >= MAX_STACK) return { outcome: "push_limit_reached" };
  const answered = answeredView(answer?.view);
  if ("refusal" in answered) return { outcome: "invalid_view", result: answered.refusal };
  const { view } = answered;
  if (action === "update") {
    const updated: StoredView = { ...place.view, view, hash: viewHash(ctx.clock.now()) };
    ws.views.views.set(updated.id, updated);
    announceChange(ws, { type: "view", user: updated.userId, app_id: updated.appId, view_id: updated.id, view_type: updated.type, closed: false });
    // What the member entered stays for the blocks that keep their ids (as on the platform); the errors go.
    delete viewEntries(ctx.state, updated.id).errors;
    return { outcome: "update", result: { view: wireView(updated) } };
  }
  return { outcome: "push", result: { view: wireView(pushView(ctx, ws, place.installation, place.view, stack, view)) } };
}

export async function submitView(ctx: RequestContext, body: z.infer<typeof SubmitBody>): Promise<Response> {
  const ws = adminWorkspace(ctx.state, body.team_id);
  const user = actingMember(ws, body.user);
  const opened = openModal(ctx, ws, user, body.view_id);
  const { place } = opened;
  const app = requireApp(ctx.state, place.installation.appId);
  const entries = viewEntries(ctx.state, place.view.id);
  for (const [blockId, actions] of Object.entries(body.values ?? {})) {
    for (const [actionId, value] of Object.entries(actions)) {
      const found = findElement(place.view.view.blocks, actionId, blockId);
      const offered = suggestedOptions(ctx.state, offeredKey(user, place, blockId, actionId));
      (entries.values[blockId] ??= {})[actionId] = { type: found.element.type, ...choiceFields(found.element, value, offered) };
    }
  }
  // A new submission clears the errors shown under the blocks.
  delete entries.errors;
  const triggerId = mintTrigger(ctx, ws, app.id, user, place.view.id);
  const payload = { type: "view_submission", ...commonPart(ctx, ws, app, user), trigger_id: triggerId, view: viewWithState(ctx, place), response_urls: [] };
  const { exchanged, entry } = await interact(ctx, {
    app,
    installation: place.installation,
    type: "view_submission",
    user,
    url: interactivityUrlOf(app),
    envelope: { type: "interactive", payload },
    acceptsResponse: true,
  });
  if (!exchanged.failure) {
    const applied = applyResponseAction(ctx, ws, opened, answerObject(exchanged.answer));
    settle(entry, applied.outcome, applied.result);
  }
  return answerCaller(entry, { trigger_id: triggerId });
}

export async function closeView(ctx: RequestContext, body: z.infer<typeof CloseBody>): Promise<Response> {
  const ws = adminWorkspace(ctx.state, body.team_id);
  const user = actingMember(ws, body.user);
  const opened = openModal(ctx, ws, user, body.view_id);
  const { place } = opened;
  const app = requireApp(ctx.state, place.installation.appId);
  // The app hears once, of the view it asked about: the one shown, or with `clear` the topmost cleared view
  // that set notify_on_close (a root that asked is told though a pushed view was on top; docs/emulator.md's Choices).
  const cleared = body.clear === true ? [...opened.stack].reverse() : [place.view.id];
  const asked = cleared
    .map((id) => (id === place.view.id ? place : locate(ctx, ws, user, { view_id: id })))
    .find((p): p is typeof place => p.kind === "view" && p.view.view.notify_on_close === true);
  // Read before the close forgets what the member entered.
  const view = asked ? viewWithState(ctx, asked) : undefined;
  closeTop(ctx.state, ws, opened.key, opened.stack, body.clear === true);
  if (!asked) return jsonResponse({ ok: true, view_id: place.view.id, notified: false });
  const payload = { type: "view_closed", ...commonPart(ctx, ws, app, user), view, is_cleared: body.clear === true };
  const { entry } = await interact(ctx, {
    app,
    installation: place.installation,
    type: "view_closed",
    user,
    url: interactivityUrlOf(app),
    envelope: { type: "interactive", payload },
    acceptsResponse: false,
  });
  return answerCaller(entry, { view_id: place.view.id, notified: true });
}
