import "server-only";
import type { InstallingApp } from "@/lib/app-config/installing-app";

/**
 * What "Add to workspace" asks for when neither the link, nor BOT_SCOPES / USER_SCOPES, nor the app's
 * configuration says: what the console's pages use (the explorer's lists and history, posting, the
 * webhook, mentions). Only for an app whose configuration the console cannot read (the platform without a
 * configuration token); an app that does not declare one of these makes the platform answer invalid_scope.
 */
const FALLBACK_BOT_SCOPES = ["users:read", "channels:read", "channels:history", "chat:write", "chat:write.public", "incoming-webhook", "app_mentions:read"];
const FALLBACK_USER_SCOPES = ["users:read"];

export interface ScopeSources {
  /** The link's own `scope` / `user_scope` (a reinstall asking for new scopes). */
  link: { bot?: string; user?: string };
  /** BOT_SCOPES / USER_SCOPES, when set. */
  configured: { bot: string[] | undefined; user: string[] | undefined };
  /** The app's configuration, read when needed (the link and the settings leave something to it). */
  app: () => Promise<InstallingApp | undefined>;
}

/**
 * The scopes an install asks for, each kind from the first that says: the link, BOT_SCOPES / USER_SCOPES,
 * the app's configuration (its manifest's scopes, what the settings page shows and the platform lets it ask
 * for), else the fallback.
 */
export async function installScopes(sources: ScopeSources): Promise<{ bot: string; user: string }> {
  const bot = sources.link.bot ?? sources.configured.bot?.join(",");
  const user = sources.link.user ?? sources.configured.user?.join(",");
  if (bot !== undefined && user !== undefined) return { bot, user };
  const declared = (await sources.app())?.scopes;
  const fromApp = declared && declared.bot.length + declared.user.length > 0 ? declared : undefined;
  return {
    bot: bot ?? (fromApp ? fromApp.bot : FALLBACK_BOT_SCOPES).join(","),
    user: user ?? (fromApp ? fromApp.user : FALLBACK_USER_SCOPES).join(","),
  };
}
