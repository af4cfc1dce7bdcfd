"use client";

import { createContext, useContext } from "react";
import useSWR, { useSWRConfig } from "swr";
import useSWRMutation from "swr/mutation";
import type { ConsoleSession } from "@/lib/session/console-session";
import type { InstallationActionAnswer } from "@/lib/installations/universal/view";
import type { AppKey } from "@/lib/installations/universal/view";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { listQueryString, type ListQuery } from "@/lib/installations/universal/list-query";
import { fetchJson, jsonBody, type ConsoleRequestError } from "./console-fetch";

const KEY = "/api/session";

/** The session's key for a page of the list: GET /api/session with the query's search, filter and place. */
export function sessionKey(query: Partial<ListQuery> = {}): string {
  return `${KEY}${listQueryString(query)}`;
}

/**
 * The key of the page the installations' actions belong to (the dashboard provides the one it shows), so an
 * action's answer updates that page, and reading the session again reads it.
 */
export const SessionKeyContext = createContext<string>(KEY);

/**
 * A page of the installations this person sees (tokens masked, each with its timeline; the first page of
 * all without a query), revalidated every 30 s and after every action. The previous page stays on screen
 * while the next one loads, so typing a search does not blank the list.
 */
export function useSession(query: Partial<ListQuery> = {}) {
  return useSWR<ConsoleSession, ConsoleRequestError>(sessionKey(query), (url: string) => fetchJson<ConsoleSession>(url), {
    refreshInterval: 30_000,
    keepPreviousData: true,
  });
}

export interface TokenArg {
  installation: string;
  token: TokenKind;
}

export type ExchangeArg = { installation: string; token: TokenKind; confirm: true } | { pastedToken: string; app: AppKey; confirm: true };

export type SessionAction =
  | { kind: "test" | "refresh" | "revoke"; arg: TokenArg }
  | { kind: "exchange"; arg: ExchangeArg }
  | { kind: "uninstall" | "forget"; arg: { installation: string } };

function runAction(action: SessionAction): Promise<InstallationActionAnswer> {
  switch (action.kind) {
    case "test":
    case "refresh":
    case "revoke":
    case "exchange":
      return fetchJson<InstallationActionAnswer>(`/api/tokens/${action.kind}`, jsonBody(action.arg));
    case "uninstall":
      return fetchJson<InstallationActionAnswer>(`/api/installations/${encodeURIComponent(action.arg.installation)}/uninstall`, { method: "POST" });
    case "forget":
      return fetchJson<InstallationActionAnswer>(`/api/installations/${encodeURIComponent(action.arg.installation)}`, { method: "DELETE" });
  }
}

/**
 * The session with one installation as an action answered it: its new state and timeline show at once,
 * before the session is read again.
 */
function withInstallation(result: InstallationActionAnswer, current: ConsoleSession | undefined): ConsoleSession | undefined {
  const installation = result.installation;
  if (!current || !installation) return current;
  const known = current.installations.some((i) => i.id === installation.id);
  return {
    ...current,
    installations: known ? current.installations.map((i) => (i.id === installation.id ? installation : i)) : [...current.installations, installation],
  };
}

/**
 * Every token and installation action. The installation an action answers with replaces the cached one
 * at once; the session is read again after each action all the same (a refresh may have changed others).
 */
export function useSessionAction() {
  return useSWRMutation<InstallationActionAnswer, ConsoleRequestError, string, SessionAction, ConsoleSession | undefined>(
    useContext(SessionKeyContext),
    (_key, { arg }) => runAction(arg),
    {
      populateCache: withInstallation,
      revalidate: true,
    },
  );
}

/** Reads the session again now (after a failed action, whose record the server may have kept). */
export function useRevalidateSession() {
  const { mutate } = useSWRConfig();
  const key = useContext(SessionKeyContext);
  return () => mutate<ConsoleSession>(key);
}
