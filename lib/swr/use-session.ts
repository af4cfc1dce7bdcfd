"use client";

import useSWR from "swr";
import useSWRMutation from "swr/mutation";
import type { AppKey, InstallationView, TokenKind } from "@/lib/session/installation";
import { fetchJson, jsonBody, type ConsoleRequestError } from "./fetch-json";

const KEY = "/api/session";

/** GET /api/session, as the console's pages read it. */
export interface SessionData {
  ok: true;
  upstream: { kind: "emulator" | "platform"; baseUrl: string };
  installations: InstallationView[];
  maxInstallations: number;
  /** Tokens expiring within this many seconds are refreshed before their next use. */
  refreshWindowS: number;
  /** The server's clock when it answered: countdowns correct the browser's clock by it. */
  serverTime: number;
}

/** This browser's installations (tokens masked), revalidated every 30 s and after every action. */
export function useSession() {
  return useSWR<SessionData, ConsoleRequestError>(KEY, (url: string) => fetchJson<SessionData>(url), { refreshInterval: 30_000 });
}

/** The platform's answer to an action, as the console's token routes return it. */
export interface PlatformActionResult {
  ok: boolean;
  platform?: unknown;
  refreshed?: boolean;
  installation?: InstallationView;
}

export interface TokenArg {
  installation: string;
  token: TokenKind;
}

export type ExchangeArg =
  | { installation: string; token: TokenKind; confirm: true }
  | { pastedToken: string; app: AppKey; confirm: true };

export type SessionAction =
  | { kind: "test" | "refresh" | "revoke"; arg: TokenArg }
  | { kind: "exchange"; arg: ExchangeArg }
  | { kind: "uninstall" | "forget"; arg: { installation: string } };

function runAction(action: SessionAction): Promise<PlatformActionResult> {
  switch (action.kind) {
    case "test":
    case "refresh":
    case "revoke":
    case "exchange":
      return fetchJson<PlatformActionResult>(`/api/tokens/${action.kind}`, jsonBody(action.arg));
    case "uninstall":
      return fetchJson<PlatformActionResult>(`/api/installations/${encodeURIComponent(action.arg.installation)}/uninstall`, { method: "POST" });
    case "forget":
      return fetchJson<PlatformActionResult>(`/api/installations/${encodeURIComponent(action.arg.installation)}`, { method: "DELETE" });
  }
}

/** Every token and installation action; the session revalidates after each one. */
export function useSessionAction() {
  return useSWRMutation<PlatformActionResult, ConsoleRequestError, string, SessionAction>(KEY, (_key, { arg }) => runAction(arg), {
    populateCache: false,
    revalidate: true,
  });
}
