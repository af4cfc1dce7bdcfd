"use client";

import useSWR, { useSWRConfig } from "swr";
import useSWRMutation from "swr/mutation";
import type { DisconnectReason, NewAppTokenAnswer, SocketModeView } from "@/lib/app-config/universal/socket-mode";
import { fetchJson, jsonBody, type ConsoleRequestError } from "./console-fetch";

const key = (appId: string) => `/api/app-config/apps/${encodeURIComponent(appId)}/socket-mode`;
const base = (appId: string) => `/api/app-config/apps/${encodeURIComponent(appId)}`;

/** Connections come and go while the page is open: read again every few seconds. */
const REFRESH_MS = 3000;

/** GET …/socket-mode: the switch, the app-level tokens (masked) and the open connections. */
export function useSocketMode(appId: string | null) {
  return useSWR<SocketModeView, ConsoleRequestError>(appId ? key(appId) : null, (url: string) => fetchJson<SocketModeView>(url), {
    refreshInterval: (latest) => (latest?.available ? REFRESH_MS : 0),
    shouldRetryOnError: false,
  });
}

export type SocketModeAction =
  | { kind: "generate"; name: string; scopes: string[] }
  | { kind: "revoke"; name: string }
  | { kind: "switch"; enabled: boolean }
  | { kind: "disconnect"; reason: DisconnectReason; connectionId?: string };

/** The outcome of an action: the panel as it now is, and a generated token's value (shown this once). */
export interface SocketModeOutcome {
  view: SocketModeView;
  generated: { name: string; token: string } | null;
}

async function run(appId: string, action: SocketModeAction): Promise<SocketModeOutcome> {
  switch (action.kind) {
    case "generate": {
      const made = await fetchJson<NewAppTokenAnswer>(`${base(appId)}/app-tokens`, jsonBody({ name: action.name, scopes: action.scopes }));
      return { view: made.socketMode, generated: { name: made.name, token: made.token } };
    }
    case "revoke":
      return { view: await fetchJson<SocketModeView>(`${base(appId)}/app-tokens/revoke`, jsonBody({ name: action.name })), generated: null };
    case "switch":
      return { view: await fetchJson<SocketModeView>(key(appId), jsonBody({ enabled: action.enabled })), generated: null };
    case "disconnect":
      return {
        view: await fetchJson<SocketModeView>(
          `${base(appId)}/connections/disconnect`,
          jsonBody({ reason: action.reason, ...(action.connectionId ? { connectionId: action.connectionId } : {}) }),
        ),
        generated: null,
      };
  }
}

/** Every action of the Socket Mode panel; the panel's data is replaced by the answer (no second request). */
export function useSocketModeAction(appId: string) {
  const { mutate } = useSWRConfig();
  return useSWRMutation<SocketModeOutcome, ConsoleRequestError, string, SocketModeAction>(`${key(appId)}#action`, async (_key, { arg }) => {
    const outcome = await run(appId, arg);
    await mutate(key(appId), outcome.view, { revalidate: false });
    return outcome;
  });
}
