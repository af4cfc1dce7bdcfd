/**
 * usergroups.list, .create, .update, .disable, .enable, .users.list and .users.update: a workspace's user
 * groups, from the platform's method pages (https://docs.slack.dev/reference/methods/usergroups.create and
 * its siblings; transcribed in docs/reference/platform-methods). Scopes usergroups:read / usergroups:write
 * for bot and user tokens. A name and a handle are each unique among the workspace's groups
 * (name_already_exists, handle_already_exists); an unknown id is no_such_subteam; a disabled group is
 * listed, and its users read, only with include_disabled.
 */
import { WebApiError } from "../../core/errors";
import { touch } from "../../core/change-tracking";
import type { MethodContext, MethodDefinition } from "../../types";
import { memberIndexOf } from "../../workspace/members";
import type { Usergroup } from "../../workspace/usergroups";
import { randomPlatformId } from "../../workspace/views";
import { actingUserId } from "./chat";

const READ = { bot: ["usergroups:read"], user: ["usergroups:read"] };
const WRITE = { bot: ["usergroups:write"], user: ["usergroups:write"] };
/** The platform's client caps a group's name and handle (too_long past them). */
const MAX_NAME = 255;
const MAX_HANDLE = 255;
const MAX_DESCRIPTION = 1000;

const flag = (value: string | undefined) => value === "true" || value === "1";
const commaList = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");

function missing(field: string): WebApiError {
  return new WebApiError("invalid_arguments", { response_metadata: { messages: [`[ERROR] missing required field: ${field}`] } });
}

/** The usergroup object as the platform answers it; users and user_count when asked. */
export function wireUsergroup(group: Usergroup, options: { users?: boolean; count?: boolean } = {}): Record<string, unknown> {
  return {
    id: group.id,
    team_id: group.teamId,
    is_usergroup: true,
    is_subteam: true,
    name: group.name,
    description: group.description,
    handle: group.handle,
    is_external: false,
    date_create: group.dateCreate,
    date_update: group.dateUpdate,
    date_delete: group.dateDelete,
    auto_type: null,
    auto_provision: false,
    enterprise_subteam_id: "",
    created_by: group.createdBy,
    updated_by: group.updatedBy,
    deleted_by: group.deletedBy,
    prefs: { channels: group.channels, groups: [] },
    ...(options.users ? { users: group.users } : {}),
    ...(options.count ? { user_count: group.users.length } : {}),
  };
}

function requireGroup(ctx: MethodContext): Usergroup {
  const id = ctx.params.usergroup;
  if (!id) throw missing("usergroup");
  const group = ctx.ws.usergroups.get(id);
  if (!group) throw new WebApiError("no_such_subteam");
  return group;
}

/** The name, handle and description given (checked for length and uniqueness), and the default channels. */
function readFields(ctx: MethodContext, own: Usergroup | undefined): Partial<Pick<Usergroup, "name" | "handle" | "description" | "channels">> {
  const { name, handle, description, channels } = ctx.params;
  if ((name?.length ?? 0) > MAX_NAME || (handle?.length ?? 0) > MAX_HANDLE || (description?.length ?? 0) > MAX_DESCRIPTION) throw new WebApiError("too_long");
  const others = [...ctx.ws.usergroups.values()].filter((g) => g !== own);
  if (name && others.some((g) => g.name.toLowerCase() === name.toLowerCase())) throw new WebApiError("name_already_exists");
  if (handle && others.some((g) => g.handle.toLowerCase() === handle.toLowerCase())) throw new WebApiError("handle_already_exists");
  const channelIds = channels === undefined ? undefined : commaList(channels);
  if (channelIds?.some((id) => !ctx.ws.channelsById.has(id))) throw new WebApiError("invalid_channel");
  return {
    ...(name ? { name } : {}),
    ...(handle ? { handle } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(channelIds ? { channels: channelIds } : {}),
  };
}

/** A handle from a name when none is given, as the platform's client proposes one: lower case, dashes. */
const handleFrom = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "");

const seconds = (ctx: MethodContext) => Math.floor(ctx.clock.now() / 1000);

function setEnabled(ctx: MethodContext, enabled: boolean): Record<string, unknown> {
  const group = requireGroup(ctx);
  if (enabled === (group.dateDelete === 0)) throw new WebApiError(enabled ? "already_enabled" : "already_disabled");
  const by = actingUserId(ctx.caller!);
  group.dateDelete = enabled ? 0 : seconds(ctx);
  group.deletedBy = enabled ? null : by;
  group.updatedBy = by;
  group.dateUpdate = seconds(ctx);
  touch(group);
  return { usergroup: wireUsergroup(group, { count: flag(ctx.params.include_count) }) };
}

export const usergroupsMethods: MethodDefinition[] = [
  {
    name: "usergroups.list",
    tier: 2,
    auth: "token",
    scopes: READ,
    handler(ctx) {
      const withDisabled = flag(ctx.params.include_disabled);
      const groups = [...ctx.ws.usergroups.values()].filter((g) => withDisabled || g.dateDelete === 0).sort((a, b) => a.name.localeCompare(b.name));
      const options = { users: flag(ctx.params.include_users), count: flag(ctx.params.include_count) };
      return { usergroups: groups.map((g) => wireUsergroup(g, options)) };
    },
  },
  {
    name: "usergroups.create",
    tier: 2,
    auth: "token",
    json: true,
    scopes: WRITE,
    handler(ctx) {
      if (!ctx.params.name) throw missing("name");
      const fields = readFields(ctx, undefined);
      const handle = fields.handle ?? handleFrom(ctx.params.name);
      if ([...ctx.ws.usergroups.values()].some((g) => g.handle.toLowerCase() === handle)) throw new WebApiError("handle_already_exists");
      const by = actingUserId(ctx.caller!);
      const now = seconds(ctx);
      let id: string;
      do id = randomPlatformId("S");
      while (ctx.ws.usergroups.has(id));
      const group: Usergroup = {
        id,
        teamId: ctx.ws.team.id,
        name: ctx.params.name,
        handle,
        description: fields.description ?? "",
        channels: fields.channels ?? [],
        users: [],
        createdBy: by,
        updatedBy: by,
        dateCreate: now,
        dateUpdate: now,
        dateDelete: 0,
        deletedBy: null,
      };
      ctx.ws.usergroups.set(id, group);
      return { usergroup: wireUsergroup(group, { count: flag(ctx.params.include_count) }) };
    },
  },
  {
    name: "usergroups.update",
    tier: 2,
    auth: "token",
    json: true,
    scopes: WRITE,
    handler(ctx) {
      const group = requireGroup(ctx);
      Object.assign(group, readFields(ctx, group), { updatedBy: actingUserId(ctx.caller!), dateUpdate: seconds(ctx) });
      touch(group);
      return { usergroup: wireUsergroup(group, { users: true, count: flag(ctx.params.include_count) }) };
    },
  },
  { name: "usergroups.disable", tier: 2, auth: "token", json: true, scopes: WRITE, handler: (ctx) => setEnabled(ctx, false) },
  { name: "usergroups.enable", tier: 2, auth: "token", json: true, scopes: WRITE, handler: (ctx) => setEnabled(ctx, true) },
  {
    name: "usergroups.users.list",
    tier: 4,
    auth: "token",
    scopes: READ,
    handler(ctx) {
      const group = requireGroup(ctx);
      // A disabled group is as good as gone unless the caller asks for disabled ones.
      if (group.dateDelete !== 0 && !flag(ctx.params.include_disabled)) throw new WebApiError("no_such_subteam");
      return { users: group.users };
    },
  },
  {
    name: "usergroups.users.update",
    tier: 2,
    auth: "token",
    json: true,
    scopes: WRITE,
    handler(ctx) {
      const group = requireGroup(ctx);
      if (ctx.params.users === undefined) throw missing("users");
      const users = [...new Set(commaList(ctx.params.users))];
      if (users.length === 0) throw new WebApiError("no_users_provided");
      if (users.some((id) => memberIndexOf(ctx.ws, id) < 0)) throw new WebApiError("invalid_users");
      group.users = users;
      group.updatedBy = actingUserId(ctx.caller!);
      group.dateUpdate = seconds(ctx);
      touch(group);
      return { usergroup: wireUsergroup(group, { users: true, count: flag(ctx.params.include_count) }) };
    },
  },
];
