/**
 * views.open, views.push, views.update, views.publish: modals and App Home tabs, kept per workspace
 * (workspace/views.ts). The platform's method pages are the source of the rules and errors:
 * https://docs.slack.dev/reference/methods/views.open, …/views.push, …/views.update, …/views.publish,
 * and the view object https://docs.slack.dev/reference/views (modal title, submit and close at most 24
 * characters, at most 100 blocks, private_metadata at most 3000 characters, callback_id and external_id at
 * most 255, the whole view at most 250 kB).
 *
 * A trigger id is good once (`exchanged_trigger_id` after), for 3 seconds of the emulator's clock
 * (`expired_trigger_id`), for the app it was issued to; a malformed or unknown one is `invalid_trigger_id`.
 * Every interaction mints one (interactivity/); `POST {base}/admin/triggers` (admin/triggers.ts) issues one alone.
 */
import { announceChange } from "../../workspace/changes";
import { randomBytes } from "node:crypto";
import { WebApiError } from "../../core/errors";
import { parseJsonWithin } from "../../core/json-depth";
import type { Caller, MethodContext, MethodDefinition } from "../../types";
import { memberIndexOf } from "../../workspace/members";
import { appUserKey, randomPlatformId, viewHash, type StoredView, type Trigger, type ViewsState } from "../../workspace/views";
import type { Workspace } from "../../workspace/workspace";
import { touch } from "../../core/change-tracking";
import { validateBlocks } from "../../blocks/validate";

/** The platform refuses a view larger than 250 kB (view_too_large). */
const MAX_VIEW_BYTES = 250 * 1024;
const MAX_TITLE = 24;
const MAX_PRIVATE_METADATA = 3000;
const MAX_ID_LENGTH = 255;
/** A modal and at most 2 views pushed onto it (views.push's page: "the limit is 3"). */
const MAX_STACK = 3;

/** The expected shape of a trigger id, as the platform's invalid_trigger_id says: "132456.7890123.abcdef". */
const TRIGGER_SHAPE = /^\d+\.\d+\.[0-9a-f]+$/;

function invalidArguments(messages: string[]): WebApiError {
  return new WebApiError("invalid_arguments", { response_metadata: { messages } });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A plain_text object of at most `max` characters (title, submit, close); its problems, as json-pointer messages. */
function textObjectProblems(value: unknown, pointer: string, max: number): string[] {
  if (!isObject(value)) return [`[ERROR] must be an object [json-pointer:${pointer}]`];
  const problems: string[] = [];
  if (value.type !== "plain_text") problems.push(`[ERROR] must be "plain_text" [json-pointer:${pointer}/type]`);
  if (typeof value.text !== "string" || value.text === "") problems.push(`[ERROR] missing required field: text [json-pointer:${pointer}]`);
  else if (value.text.length > max) problems.push(`[ERROR] must be less than ${max + 1} characters [json-pointer:${pointer}/text]`);
  return problems;
}

function stringProblems(view: Record<string, unknown>, field: string, max: number): string[] {
  const value = view[field];
  if (value === undefined) return [];
  if (typeof value !== "string") return [`[ERROR] must be a string [json-pointer:/view/${field}]`];
  return value.length > max ? [`[ERROR] must be less than ${max + 1} characters [json-pointer:/view/${field}]`] : [];
}

/** A block id like the platform's own when the app gave none (`2WGp9`). */
function generatedBlockId(): string {
  return randomBytes(4).toString("base64url").slice(0, 5);
}

/**
 * The view parameter, checked as the platform checks it: every problem in `response_metadata.messages`
 * (invalid_arguments), or view_too_large. `types` are the types this method takes.
 */
function readView(raw: string | undefined, types: readonly ("modal" | "home")[]): Record<string, unknown> & { type: "modal" | "home" } {
  if (raw === undefined || raw.trim() === "") throw invalidArguments(["[ERROR] missing required field: view"]);
  if (Buffer.byteLength(raw, "utf8") > MAX_VIEW_BYTES) throw new WebApiError("view_too_large");
  const parsed = parseJsonWithin(raw);
  return checkView(parsed.ok ? parsed.value : undefined, types);
}

/**
 * A view already parsed (what views.* read from their `view` parameter, and what an app answers a
 * view_submission with: interactivity/modals.ts), checked by the same rules; block ids filled in.
 */
export function checkView(value: unknown, types: readonly ("modal" | "home")[]): Record<string, unknown> & { type: "modal" | "home" } {
  if (!isObject(value)) throw invalidArguments(["[ERROR] failed to match all allowed schemas [json-pointer:/view]"]);
  // A view answered over the wire was never a string: its size is measured as the JSON it would be.
  if (Buffer.byteLength(JSON.stringify(value), "utf8") > MAX_VIEW_BYTES) throw new WebApiError("view_too_large");
  const view = { ...value };
  if (!types.includes(view.type as "modal")) {
    throw invalidArguments([`[ERROR] must be ${types.map((t) => `"${t}"`).join(" or ")} [json-pointer:/view/type]`]);
  }
  const problems: string[] = [];
  if (view.type === "modal") {
    if (view.title === undefined) problems.push("[ERROR] missing required field: title [json-pointer:/view]");
    else problems.push(...textObjectProblems(view.title, "/view/title", MAX_TITLE));
  } else if (view.title !== undefined) problems.push(...textObjectProblems(view.title, "/view/title", MAX_TITLE));
  for (const field of ["submit", "close"] as const) {
    if (view[field] !== undefined && view[field] !== null) problems.push(...textObjectProblems(view[field], `/view/${field}`, MAX_TITLE));
  }
  if (!Array.isArray(view.blocks)) problems.push("[ERROR] missing required field: blocks [json-pointer:/view]");
  else problems.push(...validateBlocks(view.blocks, { surface: view.type as "modal" | "home", pointer: "/view/blocks" }).map((p) => `[ERROR] ${p}`));
  problems.push(...stringProblems(view, "private_metadata", MAX_PRIVATE_METADATA));
  problems.push(...stringProblems(view, "callback_id", MAX_ID_LENGTH));
  problems.push(...stringProblems(view, "external_id", MAX_ID_LENGTH));
  if (problems.length > 0) throw invalidArguments(problems);
  // The platform gives every block without a block_id one of its own.
  view.blocks = (view.blocks as Record<string, unknown>[]).map((block) =>
    typeof block.block_id === "string" ? block : { ...block, block_id: generatedBlockId() },
  );
  return view as Record<string, unknown> & { type: "modal" | "home" };
}

/** The view object the platform answers (the reference's examples give its fields and their order). */
export function wireView(stored: StoredView): Record<string, unknown> {
  const { view } = stored;
  const str = (value: unknown) => (typeof value === "string" ? value : "");
  return {
    id: stored.id,
    team_id: stored.teamId,
    type: stored.type,
    ...(view.title !== undefined ? { title: view.title } : {}),
    close: view.close ?? null,
    submit: view.submit ?? null,
    blocks: view.blocks,
    private_metadata: str(view.private_metadata),
    callback_id: str(view.callback_id),
    external_id: stored.externalId,
    state: { values: {} },
    hash: stored.hash,
    clear_on_close: view.clear_on_close === true,
    notify_on_close: view.notify_on_close === true,
    root_view_id: stored.rootViewId,
    previous_view_id: stored.previousViewId,
    app_id: stored.appId,
    app_installed_team_id: stored.teamId,
    bot_id: stored.botId,
  };
}

/**
 * The trigger a views.open or views.push exchanges: refused as the platform refuses it. It is spent only
 * when the view opens (`spend`), so a view refused for its own problems leaves the trigger usable.
 */
function requireTrigger(ctx: MethodContext, caller: Caller): Trigger {
  const id = ctx.params.trigger_id || ctx.params.interactivity_pointer;
  if (!id) throw invalidArguments(["[ERROR] missing required field: trigger_id"]);
  const trigger = TRIGGER_SHAPE.test(id) ? ctx.ws.views.triggers.get(id) : undefined;
  if (!trigger || trigger.appId !== caller.app.id) throw new WebApiError("invalid_trigger_id");
  if (trigger.exchangedAt !== undefined) throw new WebApiError("exchanged_trigger_id");
  if (ctx.clock.now() >= trigger.expiresAt) throw new WebApiError("expired_trigger_id");
  return trigger;
}

/** external_id is unique among an app's views in a workspace (duplicate_external_id). */
function claimExternalId(views: ViewsState, appId: string, view: Record<string, unknown>, ownId: string | undefined): string {
  const externalId = typeof view.external_id === "string" ? view.external_id : "";
  if (externalId === "") return "";
  const holder = views.externalIds.get(appUserKey(appId, externalId));
  if (holder !== undefined && holder !== ownId) throw new WebApiError("duplicate_external_id");
  return externalId;
}

function storeView(ws: Workspace, stored: StoredView, previousExternalId = ""): StoredView {
  const { views } = ws;
  if (previousExternalId && previousExternalId !== stored.externalId) views.externalIds.delete(appUserKey(stored.appId, previousExternalId));
  if (stored.externalId) views.externalIds.set(appUserKey(stored.appId, stored.externalId), stored.id);
  views.views.set(stored.id, stored);
  announceChange(ws, { type: "view", user: stored.userId, app_id: stored.appId, view_id: stored.id, view_type: stored.type, closed: false });
  return stored;
}

function newView(
  ctx: MethodContext,
  caller: Caller,
  userId: string,
  view: Record<string, unknown> & { type: "modal" | "home" },
  stack?: { root: string; previous: string },
): StoredView {
  const id = randomPlatformId("V");
  return {
    id,
    teamId: ctx.ws.team.id,
    appId: caller.app.id,
    botId: caller.installation.botId,
    userId,
    type: view.type,
    view,
    hash: viewHash(ctx.clock.now()),
    rootViewId: stack?.root ?? id,
    previousViewId: stack?.previous ?? null,
    externalId: claimExternalId(ctx.ws.views, caller.app.id, view, undefined),
  };
}

const callerOf = (ctx: MethodContext): Caller => {
  if (!ctx.caller) throw new WebApiError("not_authed");
  return ctx.caller;
};

/** No scope is needed for the views methods (their pages say so), with a bot or a user token. */
const NO_SCOPES = { bot: [], user: [] };

export const viewsMethods: MethodDefinition[] = [
  {
    name: "views.open",
    tier: 4,
    auth: "token",
    json: true,
    scopes: NO_SCOPES,
    handler(ctx) {
      const caller = callerOf(ctx);
      const trigger = requireTrigger(ctx, caller);
      const view = readView(ctx.params.view, ["modal"]);
      const stored = storeView(ctx.ws, newView(ctx, caller, trigger.userId, view));
      trigger.exchangedAt = ctx.clock.now();
      touch(trigger);
      // A new modal replaces whatever the member had open from this app.
      ctx.ws.views.stacks.set(appUserKey(caller.app.id, trigger.userId), [stored.id]);
      return { view: wireView(stored) };
    },
  },
  {
    name: "views.push",
    tier: 4,
    auth: "token",
    json: true,
    scopes: NO_SCOPES,
    handler(ctx) {
      const caller = callerOf(ctx);
      const trigger = requireTrigger(ctx, caller);
      const key = appUserKey(caller.app.id, trigger.userId);
      const stack = ctx.ws.views.stacks.get(key);
      // The trigger comes from an interaction in an open modal: with none open there is nothing to push onto.
      if (!stack || stack.length === 0 || (trigger.viewId !== undefined && !stack.includes(trigger.viewId))) throw new WebApiError("not_found");
      if (stack.length >= MAX_STACK) throw new WebApiError("push_limit_reached");
      const view = readView(ctx.params.view, ["modal"]);
      const stored = storeView(ctx.ws, newView(ctx, caller, trigger.userId, view, { root: stack[0]!, previous: stack.at(-1)! }));
      trigger.exchangedAt = ctx.clock.now();
      touch(trigger);
      stack.push(stored.id);
      touch(stack);
      return { view: wireView(stored) };
    },
  },
  {
    name: "views.update",
    tier: 4,
    auth: "token",
    json: true,
    scopes: NO_SCOPES,
    handler(ctx) {
      const caller = callerOf(ctx);
      const { views } = ctx.ws;
      const { view_id: viewId, external_id: externalId, hash } = ctx.params;
      if (!viewId && !externalId) throw invalidArguments(["[ERROR] either view_id or external_id is required"]);
      const id = viewId || views.externalIds.get(appUserKey(caller.app.id, externalId ?? ""));
      const current = id ? views.views.get(id) : undefined;
      if (!current || current.appId !== caller.app.id) throw new WebApiError("not_found");
      if (hash && hash !== current.hash) throw new WebApiError("hash_conflict");
      const view = readView(ctx.params.view, [current.type]);
      const updated: StoredView = {
        ...current,
        view,
        hash: viewHash(ctx.clock.now()),
        externalId: claimExternalId(views, caller.app.id, view, current.id),
      };
      return { view: wireView(storeView(ctx.ws, updated, current.externalId)) };
    },
  },
  {
    name: "views.publish",
    tier: 4,
    auth: "token",
    json: true,
    scopes: NO_SCOPES,
    handler(ctx) {
      const caller = callerOf(ctx);
      // The App Home is the app's bot's: the platform publishes it with a bot token only.
      if (caller.token.family !== "bot") throw new WebApiError("not_allowed_token_type");
      const userId = ctx.params.user_id ?? "";
      if (userId === "") throw invalidArguments(["[ERROR] missing required field: user_id"]);
      // Its message carries the "[ERROR]" prefix of every other invalid_arguments of the views.* methods.
      if (memberIndexOf(ctx.ws, userId) < 0) throw invalidArguments(["[ERROR] invalid `user_id`"]);
      const view = readView(ctx.params.view, ["home"]);
      const { views } = ctx.ws;
      const key = appUserKey(caller.app.id, userId);
      const currentId = views.homes.get(key);
      const current = currentId ? views.views.get(currentId) : undefined;
      if (ctx.params.hash && current && ctx.params.hash !== current.hash) throw new WebApiError("hash_conflict");
      // One App Home per member and app: publishing again replaces its content and keeps its id.
      const stored: StoredView = current
        ? { ...current, view, hash: viewHash(ctx.clock.now()), externalId: claimExternalId(views, caller.app.id, view, current.id) }
        : newView(ctx, caller, userId, view);
      storeView(ctx.ws, stored, current?.externalId);
      views.homes.set(key, stored.id);
      return { view: wireView(stored) };
    },
  },
];
