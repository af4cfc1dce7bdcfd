import type { Upstream } from "@/lib/config";

/**
 * Links into the platform for someone who installed an app, shaped as the platform shapes them, under the
 * upstream's base URL (https://slack.com, or the emulator's, which answers the same paths).
 */

/** The app's App Home in a workspace: the platform's documented app_redirect link, which opens its client there. */
export function appHomeUrl(upstream: Upstream, appId: string, teamId: string): string {
  return `${upstream.baseUrl}/app_redirect?${new URLSearchParams({ app: appId, team: teamId })}`;
}

/** The app's own page: the platform's app directory entry, or the app's row on the emulator's index page. */
export function appPageUrl(upstream: Upstream, appId: string): string {
  return upstream.kind === "emulator" ? `${upstream.baseUrl}/#app-${encodeURIComponent(appId)}` : `${upstream.baseUrl}/apps/${encodeURIComponent(appId)}`;
}
