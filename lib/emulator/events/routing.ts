/**
 * Which way an app's events travel: over Socket Mode when the app turned it on (settings.socket_mode_enabled),
 * else to its request URL, where the emulator may send them and only once the URL is verified (or while its
 * verification is under way: the delivery waits for it). None: the app cannot receive events now.
 */
import { isAllowedRequestUrl } from "../apps/registry";
import type { App, ResolvedOptions } from "../types";
import { eventRequestUrlOf } from "./url-verification";

export type DeliveryRoute = { via: "socket"; url: "socket_mode" } | { via: "http"; url: string };

export function usesSocketMode(app: App): boolean {
  return app.manifest.settings?.socket_mode_enabled === true;
}

export function deliveryRouteOf(app: App, options: ResolvedOptions): DeliveryRoute | undefined {
  if (usesSocketMode(app)) return { via: "socket", url: "socket_mode" };
  const url = eventRequestUrlOf(app, options);
  if (!url || !isAllowedRequestUrl(options, url)) return undefined;
  const verification = app.requestUrlVerification;
  if (verification === undefined || verification.url !== url || verification.state === "failed") return undefined;
  return { via: "http", url };
}
