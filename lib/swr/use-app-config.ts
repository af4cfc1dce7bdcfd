"use client";

import useSWR, { useSWRConfig } from "swr";
import useSWRMutation from "swr/mutation";
import type { AppConfigOverview, AppSettingsView, ConfigTokenAnswer, ManifestChangeResult, MigrationExchangeResult } from "@/lib/app-config/universal/types";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { fetchJson, jsonBody, type ConsoleRequestError } from "./console-fetch";

const OVERVIEW = "/api/app-config";
const appKey = (appId: string) => `/api/app-config/apps/${encodeURIComponent(appId)}`;

/** GET /api/app-config: the backend, the configuration token (masked) and the apps this page can open. */
export function useAppConfigOverview() {
  return useSWR<AppConfigOverview, ConsoleRequestError>(OVERVIEW, (url: string) => fetchJson<AppConfigOverview>(url));
}

/** GET /api/app-config/apps/{appId}: one app's settings; null while no app is chosen (or none can be read). */
export function useAppSettings(appId: string | null) {
  return useSWR<AppSettingsView, ConsoleRequestError>(appId ? appKey(appId) : null, (url: string) => fetchJson<AppSettingsView>(url), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
}

export type AppConfigAction =
  | { kind: "scopes"; appId: string; bot: string[]; user: string[] }
  | { kind: "rotation"; appId: string }
  | { kind: "verify"; appId: string }
  | { kind: "enable-events"; appId: string }
  | { kind: "exchange"; appId: string; installation: string; token: TokenKind }
  | { kind: "paste-token"; token: string; refreshToken: string }
  | { kind: "rotate-token" }
  | { kind: "forget-token" }
  | { kind: "generate-token" };

export type AppConfigActionResult =
  | { kind: "scopes" | "rotation"; result: ManifestChangeResult }
  | { kind: "verify"; result: AppSettingsView }
  | { kind: "enable-events"; result: AppSettingsView }
  | { kind: "exchange"; result: MigrationExchangeResult }
  /** A forgotten token: `configToken` null. */
  | { kind: "token"; result: { configToken: ConfigTokenAnswer["configToken"] | null } };

async function run(action: AppConfigAction): Promise<AppConfigActionResult> {
  switch (action.kind) {
    case "scopes":
      return {
        kind: "scopes",
        result: await fetchJson<ManifestChangeResult>(`${appKey(action.appId)}/scopes`, jsonBody({ bot: action.bot, user: action.user })),
      };
    case "rotation":
      return { kind: "rotation", result: await fetchJson<ManifestChangeResult>(`${appKey(action.appId)}/rotation`, jsonBody({ confirm: true })) };
    case "verify":
      return { kind: "verify", result: await fetchJson<AppSettingsView>(`${appKey(action.appId)}/verify`, jsonBody({})) };
    case "enable-events":
      return { kind: "enable-events", result: await fetchJson<AppSettingsView>(`${appKey(action.appId)}/events/enable`, jsonBody({})) };
    case "exchange":
      return {
        kind: "exchange",
        result: await fetchJson<MigrationExchangeResult>(
          `${appKey(action.appId)}/exchange`,
          jsonBody({ installation: action.installation, token: action.token, confirm: true }),
        ),
      };
    case "paste-token":
      return {
        kind: "token",
        result: await fetchJson<ConfigTokenAnswer>("/api/app-config/token", jsonBody({ token: action.token, refreshToken: action.refreshToken })),
      };
    case "rotate-token":
      return { kind: "token", result: await fetchJson<ConfigTokenAnswer>("/api/app-config/token/rotate", { method: "POST" }) };
    case "generate-token":
      return { kind: "token", result: await fetchJson<ConfigTokenAnswer>("/api/app-config/token/generate", { method: "POST" }) };
    case "forget-token":
      await fetchJson("/api/app-config/token", { method: "DELETE" });
      return { kind: "token", result: { configToken: null } };
  }
}

/**
 * Every action of the settings page. The app's settings are replaced by the ones the action answered with
 * (no second request), and the overview (backend, token) is read again after token actions.
 */
export function useAppConfigAction() {
  const { mutate } = useSWRConfig();
  return useSWRMutation<AppConfigActionResult, ConsoleRequestError, string, AppConfigAction>(OVERVIEW, async (_key, { arg }) => {
    try {
      const outcome = await run(arg);
      const settings =
        outcome.kind === "verify" || outcome.kind === "enable-events" ? outcome.result : outcome.kind === "token" ? null : outcome.result.settings;
      if (settings) await mutate(appKey(settings.appId), settings, { revalidate: false });
      if (outcome.kind === "token") await mutate((key) => typeof key === "string" && key.startsWith(`${OVERVIEW}/apps/`));
      return outcome;
    } catch (error) {
      // A configuration token the platform refused, or a cookie that could not be read, is gone: show where things stand.
      await mutate((key) => typeof key === "string" && key.startsWith(OVERVIEW));
      throw error;
    }
  });
}

/** How the settings page's parts run an action: its outcome, or null when it failed (the page shows why). */
export type RunAction = (action: AppConfigAction) => Promise<AppConfigActionResult | null>;
