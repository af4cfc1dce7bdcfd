/**
 * The interactivity routes: the admin surface acting as a member (commands.ts, actions.ts, shortcuts.ts,
 * modals.ts), the records of what happened (GET {base}/admin/interactions; with the event deliveries, GET
 * {base}/admin/records) and the member's open views
 * (GET {base}/admin/views), and the response_urls apps POST to (`{base}/commands/…`, `{base}/actions/…`).
 */
import type { z } from "zod";
import { parseAdminBody } from "../admin/admin-target";
import { jsonResponse } from "../core/errors";
import type { Router } from "../core/router";
import { wireView } from "../web-api/methods/views";
import type { RequestContext } from "../types";
import { click, ClickBody, suggest, SuggestBody } from "./actions";
import { stateValues } from "./block-walk";
import { CommandBody, invokeCommand } from "./commands";
import { closeView, CloseBody, submitView, SubmitBody } from "./modals";
import { actingMember, adminWorkspace } from "./parts";
import { describeInteractions, describeRecords } from "./records";
import { handleResponseUrl } from "./response-urls";
import { runShortcut, ShortcutBody } from "./shortcuts";
import { viewEntries } from "./side-state";

const teamOf = (ctx: RequestContext) => adminWorkspace(ctx.state, new URL(ctx.request.url).searchParams.get("team_id"));

/** A member's open modals (each app's stack, root first) and App Homes, with what they entered and the errors shown. */
function describeViews(ctx: RequestContext) {
  const ws = teamOf(ctx);
  const user = actingMember(ws, new URL(ctx.request.url).searchParams.get("user") ?? undefined);
  const describe = (id: string) => {
    const view = ws.views.views.get(id);
    if (!view) return [];
    const entries = viewEntries(ctx.state, id);
    return [{ ...wireView(view), state: { values: stateValues(view.view.blocks, entries.values) }, errors: entries.errors ?? null }];
  };
  const mine = (key: string) => key.endsWith(`:${user}`);
  return {
    user,
    modals: [...ws.views.stacks.entries()].filter(([key]) => mine(key)).flatMap(([, stack]) => stack.flatMap(describe)),
    homes: [...ws.views.homes.entries()].filter(([key]) => mine(key)).flatMap(([, id]) => describe(id)),
  };
}

export function registerInteractivityRoutes(router: Router, parse: (text: string) => unknown): void {
  const read = async <T>(ctx: RequestContext, schema: z.ZodType<T>) => parseAdminBody(schema, parse(await ctx.request.text()));
  router.post("/admin/act/command", async (ctx) => invokeCommand(ctx, await read(ctx, CommandBody)));
  router.post("/admin/act/click", async (ctx) => click(ctx, await read(ctx, ClickBody)));
  router.post("/admin/act/suggest", async (ctx) => suggest(ctx, await read(ctx, SuggestBody)));
  router.post("/admin/act/shortcut", async (ctx) => runShortcut(ctx, await read(ctx, ShortcutBody)));
  router.post("/admin/act/submit", async (ctx) => submitView(ctx, await read(ctx, SubmitBody)));
  router.post("/admin/act/close-view", async (ctx) => closeView(ctx, await read(ctx, CloseBody)));
  router.get("/admin/interactions", (ctx) => jsonResponse({ ok: true, interactions: describeInteractions(ctx.state, teamOf(ctx).team.id) }));
  router.get("/admin/records", (ctx) => jsonResponse({ ok: true, records: describeRecords(ctx.state, teamOf(ctx).team.id) }));
  router.get("/admin/views", (ctx) => jsonResponse({ ok: true, ...describeViews(ctx) }));
  router.post("/commands/*", (ctx, params) => handleResponseUrl(ctx, "commands", params["*"] ?? ""));
  router.post("/actions/*", (ctx, params) => handleResponseUrl(ctx, "actions", params["*"] ?? ""));
}
