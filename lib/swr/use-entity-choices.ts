"use client";

import useSWR from "swr";
import { ENTITY_LIST, entityChoices, type ArgumentEntity, type EntityChoice } from "@/lib/explorer/argument-entities";
import { HISTORY_OFF_HEADER } from "@/lib/explorer/history";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { consoleFetch, readAnswer } from "./console-fetch";

/** What a picker shows: its choices, or why there are none (the platform's error, such as missing_scope). */
export interface EntityChoices {
  choices: EntityChoice[];
  error: string | null;
}

async function listEntities([, entity, installation, token]: readonly [string, ArgumentEntity, string, TokenKind]): Promise<EntityChoices> {
  const list = ENTITY_LIST[entity];
  const query = new URLSearchParams({ installation, token, ...list.params });
  // The picker's lookup serves the form: it stays out of the person's history.
  const response = await consoleFetch(`/api/call/${list.method}?${query.toString()}`, { headers: { [HISTORY_OFF_HEADER]: "off" } });
  const { text } = await readAnswer(response);
  let body: { ok?: boolean; error?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return { choices: [], error: `HTTP ${response.status}` };
  }
  return body.ok === true ? { choices: entityChoices(entity, body), error: null } : { choices: [], error: body.error ?? `HTTP ${response.status}` };
}

/**
 * The channels, members or files the selected installation's token can list (conversations.list, users.list,
 * files.list: one page), for the explorer's pickers. Asked once per installation, token and kind, when a
 * picker is shown; these calls are the picker's, not the person's, and stay out of the request history.
 */
export function useEntityChoices(entity: ArgumentEntity, installation: string, token: TokenKind) {
  return useSWR<EntityChoices, Error, readonly [string, ArgumentEntity, string, TokenKind] | null>(
    installation ? (["entity-choices", entity, installation, token] as const) : null,
    listEntities,
    { revalidateOnFocus: false },
  );
}
