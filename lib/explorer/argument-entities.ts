/**
 * Arguments that name something in the workspace (a channel, a member, a file) and how to list what they may
 * name, so the explorer can offer a picker beside the field. The catalog types such an argument as a string;
 * its name says what the string is (the platform's own naming: `channel`, `user`, `file`, and their `_id`
 * forms). The lists are the platform's own methods, called with the selected installation's token.
 */
import type { CatalogArgument } from "./catalog";

export type ArgumentEntity = "channel" | "user" | "file";

const ENTITY_BY_NAME: Record<string, ArgumentEntity> = {
  channel: "channel",
  channel_id: "channel",
  user: "user",
  user_id: "user",
  file: "file",
  file_id: "file",
};

/** What an argument names, when it is one id of a channel, a member or a file (a string in the catalog). */
export function argumentEntity(arg: Pick<CatalogArgument, "name" | "type">): ArgumentEntity | null {
  return arg.type === "string" ? (ENTITY_BY_NAME[arg.name] ?? null) : null;
}

/** One choice of a picker: the id sent, and what a person recognises it by. */
export interface EntityChoice {
  id: string;
  label: string;
}

/** The method that lists an entity, with the arguments of one generous page. */
export const ENTITY_LIST: Record<ArgumentEntity, { method: string; params: Record<string, string>; scope: string }> = {
  channel: {
    method: "conversations.list",
    params: { limit: "200", exclude_archived: "true" },
    scope: "channels:read",
  },
  user: { method: "users.list", params: { limit: "200" }, scope: "users:read" },
  file: { method: "files.list", params: { count: "100" }, scope: "files:read" },
};

type Json = Record<string, unknown>;
const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** The choices in a list method's answer (the platform's JSON), in the order it gave them. */
export function entityChoices(entity: ArgumentEntity, body: unknown): EntityChoice[] {
  const answer = (body ?? {}) as Json;
  const items = (answer[entity === "channel" ? "channels" : entity === "user" ? "members" : "files"] ?? []) as Json[];
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) => {
    const id = str(item.id);
    if (!id) return [];
    if (entity === "channel") return [{ id, label: `#${str(item.name) || id}` }];
    if (entity === "user") {
      const profile = (item.profile ?? {}) as Json;
      const name = str(profile.display_name) || str(item.real_name) || str(profile.real_name) || str(item.name);
      return item.deleted === true ? [] : [{ id, label: name ? `${name} (${id})` : id }];
    }
    return [{ id, label: `${str(item.title) || str(item.name) || id} (${id})` }];
  });
}
